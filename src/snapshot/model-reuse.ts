// Whether a build may take the served snapshot's model data lines and video input keys for the
// records that did not change (docs/architecture.md, "Builds from the change log"), and what it
// takes them from. When in doubt it trusts nothing and makes every line and key: no mark of the
// change log beside the served snapshot, or a mark of another snapshot or other code (built-from.json),
// a log that cannot say (change-log.ts readChangesSince: none, another, pruned, behind), another
// base URL, or a served model data file that is not the one its manifest records.
import { join } from 'node:path';
import type { ChangeLogMark, ChangesSince } from '../catalogue/change-log.ts';
import type { PublicVideo } from '../catalogue/public-catalogue.ts';
import type { PreviousChoice } from './choose-previous.ts';
import { MODEL_FILE } from './layout.ts';
import type { ModelReuse } from './model-data.ts';
import { videoGroup, type PageInputs } from './page-inputs.ts';
import { openServedModelData } from './served-model-data.ts';
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

export interface ModelReuseSources {
  /** the snapshot whose mark the changes were read since (servedMark) */
  readonly markOf: string | undefined;
  readonly changed: ChangesSince;
  readonly choice: PreviousChoice;
  readonly baseUrl: string;
  /** the video input keys the served snapshot recorded (checked), if its pages may be copied */
  readonly previousInputs: PageInputs | undefined;
  /** whether trending and related were taken from the served snapshot's derived.bin */
  readonly sameDerived: boolean;
  readonly keyTaken: (video: PublicVideo, key: string) => void;
}

/** What the model data may take from the served snapshot, or why nothing. The caller closes `reuse.served`. */
export function openModelReuse(s: ModelReuseSources): { readonly reuse: ModelReuse; readonly none?: undefined } | { readonly reuse?: undefined; readonly none: string } {
  const { reuse } = s.choice;
  if (reuse === undefined) return { none: s.choice.none ?? 'no served snapshot is reused' };
  if (s.markOf !== reuse.id) return { none: 'no mark of the change log is recorded for the served snapshot by this code (built-from.json)' };
  if (s.changed.none !== undefined) return { none: s.changed.none };
  if (reuse.head.baseUrl !== s.baseUrl) return { none: `the served snapshot is for another base URL (${reuse.head.baseUrl})` };
  const served = openServedModelData(join(reuse.dir, MODEL_FILE), reuse.head.files[MODEL_FILE]);
  if (served === undefined) return { none: 'the served model data is not the file its manifest records' };
  const inputs = s.previousInputs;
  return {
    reuse: {
      served,
      changes: s.changed.changes,
      sameDerived: s.sameDerived,
      servedKey: (id) => inputs?.get(videoGroup(id)),
      keyTaken: s.keyTaken,
      counts: { videoLines: 0, commentLines: 0, keys: 0 },
    },
  };
}
