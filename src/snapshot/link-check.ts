// When a rebuild starts checking the served snapshot's page shards before linking them
// (shard-check.ts): as soon as it knows which videos changed, long before the pages are rendered.
// Apart from shard-check.ts, whose worker thread loads it, so that the worker does not load the
// model and the API.
import type { FileStamps } from './file-stamps.ts';
import { videoGroup, type PageInputs } from './page-inputs.ts';
import { shardOf } from './page-shards.ts';
import { videoPath } from './plan-pages.ts';
import type { PreviousPageFiles } from './previous-snapshot.ts';
import { startShardCheck, type ShardCheck } from './shard-check.ts';

const VIDEO_GROUP = videoGroup('');

/**
 * Starts the check of the served snapshot's shards as soon as the build knows which videos changed
 * (their input keys: page-inputs.ts), long before the pages are rendered, so that it runs on the
 * second core while this thread builds the model and the site stamps, not after the pages. The
 * shards holding a video whose pages' inputs changed, or a video added or removed, are skipped
 * (their pages change: they are written, not linked); the writer checks any of them that turns out
 * linkable after all (`want`), and skips those that stop being linkable as it renders. With
 * `made`, only the videos whose keys were made are compared (a one-title rebuild: a few of 100,000).
 * A file whose stamp is `stamps`' (the served snapshot's, built-from.json) is not read.
 */
export function startLinkCheck(previous: PreviousPageFiles, shards: number, inputs: PageInputs, previousInputs: PageInputs, made?: MadeKeys, stamps?: FileStamps): ShardCheck {
  const changed = new Set<number>();
  const shardOfGroup = (group: string) => shardOf(videoPath(group.slice(VIDEO_GROUP.length)), shards);
  let removed = true;
  if (made) {
    // the videos whose keys were taken are unchanged and served: only the others are compared, and
    // the served videos counted to know whether one is gone (looked for only then)
    let present = made.taken;
    for (const id of made.ids) {
      const group = videoGroup(id);
      const served = previousInputs.get(group);
      if (served !== undefined) present++;
      if (served !== inputs.get(group)) changed.add(shardOfGroup(group));
    }
    let served = 0;
    for (const group of previousInputs.keys()) if (group.startsWith(VIDEO_GROUP)) served++;
    removed = served !== present;
  } else {
    for (const [group, key] of inputs) if (group.startsWith(VIDEO_GROUP) && previousInputs.get(group) !== key) changed.add(shardOfGroup(group));
  }
  if (removed) for (const group of previousInputs.keys()) if (group.startsWith(VIDEO_GROUP) && !inputs.has(group)) changed.add(shardOfGroup(group));
  return startShardCheck(previous.dir, previous.id, shards, previous.records, changed, stamps);
}

/**
 * The videos whose input keys a build made (`ids`), and how many it took from the served snapshot
 * instead (`taken`: those videos are served, their keys unchanged; model-reuse.ts).
 */
export interface MadeKeys {
  readonly ids: readonly string[];
  readonly taken: number;
}
