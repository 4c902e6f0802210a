// The JS heap limit a build gives itself (docs/performance.md, "The build's heap limit"): the model
// of a large catalogue does not fit V8's default limit (about 4 GB on a 64-bit machine with enough
// memory: a build of 1,000,000 seeded videos ran out of heap with the model alone at 3.65 GB), so
// `npm run build` re-runs itself with --max-old-space-size sized from the catalogue's videos and
// the machine's memory (scripts/build.ts). The limit is only ever raised, never lowered, and a
// limit the operator chose (in NODE_OPTIONS or on node's command line) is kept.
import Database from 'better-sqlite3';

/** Heap for everything but the model: the modules, the page writer's buffers, rendering. */
export const HEAP_BASE_MB = 1024;
/**
 * Heap per video of the catalogue: the model holds about 3.8 KB a visible video at 1,000,000
 * seeded videos, and V8 needs room above what is live to collect without thrashing; a 1M build
 * ran without trouble under 7,168 MB.
 */
export const HEAP_PER_VIDEO_KB = 6;
/** At most this share of the machine's memory: the rest is for the worker threads' heaps, buffers and the page cache. */
export const HEAP_MEMORY_SHARE = 0.75;

const HEAP_FLAG = /(?:^|\s)--max[-_]old[-_]space[-_]size(?:=|\s|$)/;

export interface HeapFacts {
  /** videos in the catalogue (every privacy: an upper bound of what the model holds) */
  readonly videos: number;
  /** os.totalmem() */
  readonly totalMemory: number;
  /** V8's limit without a flag: v8.getHeapStatistics().heap_size_limit */
  readonly defaultLimit: number;
  /** NODE_OPTIONS and node's own arguments (process.execArgv), where an operator may have chosen a limit */
  readonly nodeOptions: string;
}

export type HeapChoice =
  | { readonly limitMb: number; readonly reason: string }
  | { readonly limitMb: undefined; readonly reason: string };

/** The heap limit a build of `facts.videos` videos should run with, or why the current one stays. */
export function chooseHeapLimit(facts: HeapFacts): HeapChoice {
  const mb = (bytes: number) => Math.floor(bytes / 2 ** 20);
  if (HEAP_FLAG.test(facts.nodeOptions)) return { limitMb: undefined, reason: 'the heap limit set with --max-old-space-size is kept' };
  const need = HEAP_BASE_MB + Math.ceil((facts.videos * HEAP_PER_VIDEO_KB) / 1024);
  const cap = mb(facts.totalMemory * HEAP_MEMORY_SHARE);
  const limit = Math.min(need, cap);
  const videos = facts.videos.toLocaleString('en-US');
  if (limit <= mb(facts.defaultLimit)) return { limitMb: undefined, reason: `V8's default heap limit (${mb(facts.defaultLimit)} MB) is enough for ${videos} videos (${need} MB)` };
  const capped = need > cap ? `, capped at ${Math.round(HEAP_MEMORY_SHARE * 100)}% of the machine's ${mb(facts.totalMemory)} MB` : '';
  return { limitMb: limit, reason: `${limit} MB of heap for ${videos} videos (${HEAP_BASE_MB} MB and ${HEAP_PER_VIDEO_KB} KB a video${capped})` };
}

/** The videos in a catalogue file, or undefined when it cannot be read (the build then says why). */
export function countVideos(catalogue: string): number | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(catalogue, { readonly: true, fileMustExist: true });
    const row = db.prepare('SELECT count(*) AS n FROM videos').get() as { n: number } | undefined;
    return row?.n;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}
