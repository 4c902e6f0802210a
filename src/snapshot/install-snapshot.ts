// The last steps of a build: the snapshot written aside is renamed into place (or dropped when the
// same snapshot exists; or put in place of a damaged copy of itself), the purge list written, and
// `current` swapped to it after the records that go with it (swap.ts). A failure before the swap
// leaves the served snapshot as it was.
import type { ChangeLogMark } from '../catalogue/change-log.ts';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { recordDeployment } from './deployment.ts';
import type { FollowedStamps } from './file-stamps.ts';
import type { Layout } from './layout.ts';
import type { Manifest } from './manifest.ts';
import { STATIC_DIR, writeStaticFiles } from './static-files.ts';
import { pruneSnapshots, recordBuiltFrom, recordServed, swapCurrent, writeWhole, type BuiltFrom } from './swap.ts';

/** What a build leaves on disk before its swap, for the caller to remove after a failure. */
export interface Written {
  /** the snapshot directory the build created */
  created?: string | undefined;
  /** the purge list the build wrote */
  changesFile?: string | undefined;
}

export interface Placement {
  readonly layout: Layout;
  /** the directory the snapshot was written to */
  readonly tmp: string;
  readonly id: string;
  /** whether a snapshot of this id, when one exists, is damaged (replaced by this build's then) */
  readonly damaged: () => boolean;
  /** write the pages as static files too, from this manifest */
  readonly staticFiles: (() => Manifest) | undefined;
  readonly progress: (message: string) => void;
}

/** Puts the snapshot written in `tmp` in place as `id`; whether that snapshot existed already (then `tmp` is dropped). */
export function placeSnapshot(p: Placement, written: Written): boolean {
  const target = join(p.layout.root, p.id);
  const damaged = existsSync(target) && p.damaged();
  const unchanged = existsSync(target) && !damaged;
  if (p.staticFiles && !unchanged) writeStatic(p.tmp, p.staticFiles(), p.progress);
  if (unchanged) rmSync(p.tmp, { recursive: true, force: true });
  else if (damaged) {
    const aside = join(p.layout.root, `.building-${process.pid}-${Date.now()}-damaged`);
    renameSync(target, aside);
    renameSync(p.tmp, target);
    rmSync(aside, { recursive: true, force: true });
    p.progress(`replaced the damaged files of snapshot ${p.id} with this build's`);
  } else {
    renameSync(p.tmp, target);
    written.created = target;
  }
  if (p.staticFiles && !existsSync(join(target, STATIC_DIR))) writeStatic(target, p.staticFiles(), p.progress);
  return unchanged;
}

function writeStatic(dir: string, manifest: Manifest, progress: (message: string) => void): void {
  progress('writing the pages as static files');
  progress(`${writeStaticFiles(dir, manifest, progress)} static files written`);
}

/** Writes the purge list of snapshot `id` (absolute URLs a line); its file, or undefined when nothing changed. */
export function writeChanges(layout: Layout, id: string, baseUrl: string, changes: readonly string[]): string | undefined {
  if (changes.length === 0) return undefined;
  mkdirSync(layout.changes, { recursive: true });
  const file = join(layout.changes, `${id}.txt`);
  writeWhole(file, changes.map((key) => `${baseUrl}${key}\n`).join(''));
  return file;
}

export interface Serving {
  readonly layout: Layout;
  readonly distDir: string;
  readonly baseUrl: string;
  readonly catalogueRevision: string;
  readonly code: string;
  /** where the catalogue's change log stood when it was read (undefined: it has none) */
  readonly changeLog: ChangeLogMark | undefined;
  /** snapshots served before this one that are kept */
  readonly keep: number;
  readonly progress: (message: string) => void;
}

/**
 * The records first, the swap last: a failure before it leaves the served snapshot as it was.
 * `followed` holds the stamps of the page files this build checked, followed through its links
 * (file-stamps.ts): followed through the removal of older snapshots too, those still exactly as
 * followed are recorded for the next rebuild.
 */
export function serveSnapshot(s: Serving, id: string, followed?: FollowedStamps): void {
  recordServed(s.layout.root, id);
  recordDeployment(s.distDir, s.baseUrl);
  const builtFrom: BuiltFrom = { snapshot: id, catalogueRevision: s.catalogueRevision, code: s.code, ...(s.changeLog && { changeLog: s.changeLog }) };
  recordBuiltFrom(s.layout.root, builtFrom);
  swapCurrent(s.layout.root, id);
  const pruned = pruneSnapshots(s.layout.root, id, s.keep, followed);
  if (pruned.length > 0) s.progress(`removed ${pruned.length} older snapshot${pruned.length === 1 ? '' : 's'} (${s.keep} served before this one are kept)`);
  const hashed = followed?.of(join(s.layout.root, id));
  if (hashed && Object.keys(hashed).length > 0) {
    try {
      recordBuiltFrom(s.layout.root, { ...builtFrom, hashed });
    } catch {
      // the stamps only spare the next rebuild reading files: without them it hashes every one
    }
  }
}
