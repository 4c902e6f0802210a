// Which snapshot a build starts from (docs/architecture.md, "Incremental builds"): the one being
// served, for the purge list always, and for reuse only when the same build code made it
// (buildCodeId, recorded beside the snapshots in built-from.json) and its page files have the
// sizes its manifest records, its manifest hashing to its id (read on a worker thread:
// startChoosePrevious). `full` reuses nothing.
import { join } from 'node:path';
import { MANIFEST_FILE } from './layout.ts';
import { SNAPSHOT_ID_LENGTH } from './manifest.ts';
import { hashFile } from './page-files.ts';
import { startOpenPrevious, type PreviousSnapshot } from './previous-snapshot.ts';
import { currentSnapshotId, readBuiltFrom } from './swap.ts';

export interface PreviousChoice {
  /** the served snapshot, when it can be read (for the purge list) */
  readonly previous: PreviousSnapshot | undefined;
  /** the same, when its bytes may be reused */
  readonly reuse: PreviousSnapshot | undefined;
  /** why nothing is reused (undefined when `reuse` is set) */
  readonly none: string | undefined;
  /** the served snapshot's id when its manifest cannot be used (damaged: a build of the same id replaces it) */
  readonly unreadable: string | undefined;
}

/**
 * Starts choosing: the served manifest is read on a worker thread from now on
 * (previous-snapshot.ts startOpenPrevious), and `chosen` answers once it is read. The build calls
 * it before it reads the catalogue, which takes longer than the manifest (docs/performance.md,
 * "The rebuild's files, ninth round"); `stop` ends the worker when the build fails before.
 */
export function startChoosePrevious(root: string, full: boolean, code: string): { chosen(): Promise<PreviousChoice>; stop(): Promise<void> } {
  const id = currentSnapshotId(root);
  if (id === undefined) return { chosen: async () => ({ previous: undefined, reuse: undefined, none: 'no snapshot is served yet', unreadable: undefined }), stop: async () => {} };
  const opening = startOpenPrevious(join(root, id), id);
  return { chosen: async () => chooseOpened(root, full, code, id, await opening.opened()), stop: opening.stop };
}

function chooseOpened(root: string, full: boolean, code: string, id: string, opened: PreviousSnapshot | string): PreviousChoice {
  if (typeof opened === 'string') return { previous: undefined, reuse: undefined, none: `the served snapshot ${id} cannot be read: ${opened}`, unreadable: id };
  const builtFrom = readBuiltFrom(root);
  const none = full ? 'a full build was asked for (--full)'
    : builtFrom?.snapshot !== id || builtFrom.code !== code ? `the served snapshot ${id} was built by other code`
    : typeof opened.files === 'string' ? `the served snapshot ${id} is damaged: ${opened.files}`
    : undefined;
  if (none !== undefined && typeof opened.files !== 'string') opened.files.close();
  // only a snapshot reused has its manifest's lines copied (write-manifest.ts)
  if (none !== undefined) opened.manifestLines?.close();
  return { previous: opened, reuse: none === undefined ? opened : undefined, none, unreadable: undefined };
}

/** Whether a snapshot is whole: its manifest's SHA-256 names it, and every file has the size and SHA-256 recorded. */
export function snapshotWhole(snapshot: PreviousSnapshot): boolean {
  try {
    if (hashFile(join(snapshot.dir, MANIFEST_FILE)).sha256.slice(0, SNAPSHOT_ID_LENGTH) !== snapshot.id) return false;
    return Object.entries(snapshot.head.files).every(([name, recorded]) => {
      const file = hashFile(join(snapshot.dir, name));
      return file.size === recorded.size && file.sha256 === recorded.sha256;
    });
  } catch {
    return false;
  }
}
