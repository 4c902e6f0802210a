// Whether a build may take the served snapshot's model data lines and video input keys for the
// records that did not change (docs/architecture.md, "Builds from the change log"), and what it
// takes them from. When in doubt it trusts nothing and makes every line and key: no mark of the
// change log beside the served snapshot, or a mark of another snapshot or other code (built-from.json),
// a log that cannot say (change-log.ts readChangesSince: none, another, pruned, behind), another
// base URL, or a served model data file that is not the one its manifest records. The served file
// is read whole (checked and its lines found) on a worker thread from the build's start
// (startServedReading), while the catalogue is read.
import { join } from 'node:path';
import type { ChangeLogMark, Changes, ChangesSince } from '../catalogue/change-log.ts';
import type { PublicVideo } from '../catalogue/public-catalogue.ts';
import type { PreviousChoice } from './choose-previous.ts';
import type { PreviousSnapshot } from './previous-snapshot.ts';
import { MODEL_FILE } from './layout.ts';
import type { ModelReuse } from './model-data.ts';
import { servedVideoKeys, type PageInputs } from './page-inputs.ts';
import { startServedModelData, type ServedModelDataTask } from './served-model-data.ts';
import { currentSnapshotId, readBuiltFrom } from './swap.ts';

/** The change log's mark the served snapshot was built from, when this code built it (built-from.json) and the build may reuse it. */
export function servedMark(root: string, full: boolean, code: string): { readonly snapshot: string; readonly mark: ChangeLogMark } | undefined {
  if (full) return undefined;
  const id = currentSnapshotId(root);
  const builtFrom = readBuiltFrom(root);
  return id !== undefined && builtFrom?.snapshot === id && builtFrom.code === code && builtFrom.changeLog !== undefined
    ? { snapshot: id, mark: builtFrom.changeLog }
    : undefined;
}

/**
 * Starts reading the served snapshot's model data whole on a worker thread (served-model-data.ts),
 * when the build has a mark of the change log to read changes since (`since`: servedMark): the
 * read runs on the second core while this thread reads the catalogue. The build hands the task to
 * openModelReuse, or stops it.
 */
export function startServedReading(root: string, since: { readonly snapshot: string } | undefined): ServedReading | undefined {
  return since && { snapshot: since.snapshot, task: startServedModelData(join(root, since.snapshot, MODEL_FILE)) };
}

/** The served model data of snapshot `snapshot` being read (startServedReading). */
export interface ServedReading {
  readonly snapshot: string;
  readonly task: ServedModelDataTask;
}

export interface ModelReuseSources {
  /** the snapshot whose mark the changes were read since (servedMark) */
  readonly markOf: string | undefined;
  /** its model data being read (startServedReading); closed by openModelReuse when nothing is taken */
  readonly reading: ServedReading | undefined;
  readonly changed: ChangesSince;
  readonly choice: PreviousChoice;
  readonly baseUrl: string;
  /** the video input keys the served snapshot recorded (checked), if its pages may be copied */
  readonly previousInputs: PageInputs | undefined;
  /** whether trending and related were taken from the served snapshot's derived.bin */
  readonly sameDerived: boolean;
  readonly keyTaken: (video: PublicVideo, key: string, index: number) => void;
}

/**
 * What the model data may take from the served snapshot, or why nothing. The caller closes
 * `reuse.served`; the served model data's reading is ended here when nothing is taken.
 */
export async function openModelReuse(s: ModelReuseSources): Promise<{ readonly reuse: ModelReuse; readonly none?: undefined } | { readonly reuse?: undefined; readonly none: string }> {
  const may = mayTake(s);
  if (typeof may === 'string') {
    await s.reading?.task.stop();
    return { none: may };
  }
  // checked against the served manifest's record before any of its lines is used
  const served = await may.reading.task.opened(may.reuse.head.files[MODEL_FILE]);
  if (served === undefined) return { none: 'the served model data is not the file its manifest records' };
  const inputs = s.previousInputs;
  return {
    reuse: {
      served,
      changes: may.changes,
      sameDerived: s.sameDerived,
      // asked in catalogue order, the served groups' order but for ids mixing characters above U+FFFF with U+E000–U+FFFF (SQLite orders by code point, the groups by code unit: those are looked up by name, page-inputs.ts servedVideoKeys): no `video:<id>` made and hashed a video
      servedKey: inputs === undefined ? () => undefined : servedVideoKeys(inputs),
      keyTaken: s.keyTaken,
      counts: { videoLines: 0, commentLines: 0, keys: 0 },
    },
  };
}

/** Why nothing may be taken from the served snapshot's model data, or what its lines may be taken by (once checked). */
function mayTake(s: ModelReuseSources): string | { readonly reuse: PreviousSnapshot; readonly reading: ServedReading; readonly changes: Changes } {
  const { reuse } = s.choice;
  if (reuse === undefined) return s.choice.none ?? 'no served snapshot is reused';
  if (s.markOf !== reuse.id || s.reading?.snapshot !== reuse.id) return 'no mark of the change log is recorded for the served snapshot by this code (built-from.json)';
  if (s.changed.none !== undefined) return s.changed.none;
  if (reuse.head.baseUrl !== s.baseUrl) return `the served snapshot is for another base URL (${reuse.head.baseUrl})`;
  return { reuse, reading: s.reading, changes: s.changed.changes };
}
