// Rendered answers of dynamic queries, by canonical URL, for one snapshot: a query asked again is
// answered without running its handler. Answers derived from the snapshot alone are kept until
// their space is needed; answers that carry live state for 2 s; answers for one caller (`private`)
// or of the moment (`none`) never.
//
// Bodies are copied into one ring of memory allocated once, and entries leave in the order they
// came (first in, first out) as the ring wraps. A cache of separate buffers was measured to start a
// full garbage collection every 4 s under a search load: every kept body outlived the young
// generation, and its memory could only be reclaimed by a major collection of the whole heap.
import type { CachePolicy } from '../api/endpoint.ts';
import type { Memo, Rendered } from '../api/respond.ts';

export const LIVE_ANSWER_MS = 2000;

interface Entry {
  readonly key: string;
  readonly start: number;
  readonly length: number;
  readonly status: number;
  readonly headers: Rendered['headers'];
  readonly at: number;
}

export function createAnswerCache(options: { ringBytes?: number; now?: () => number } = {}): Memo {
  const size = options.ringBytes ?? 32 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const ring = Buffer.allocUnsafeSlow(size);
  const entries = new Map<string, Entry>();
  /** entries in ring order, oldest first */
  const queue: Entry[] = [];
  let first = 0; // index of the oldest live entry in `queue`
  let head = 0;
  const cacheable = (policy: CachePolicy) => policy === 'snapshot' || policy === 'live';

  const evictOldest = () => {
    const oldest = queue[first++]!;
    if (entries.get(oldest.key) === oldest) entries.delete(oldest.key);
    if (first > 1024 && first * 2 > queue.length) {
      queue.splice(0, first);
      first = 0;
    }
  };

  return {
    get(key, policy) {
      if (!cacheable(policy)) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (policy === 'live' && now() - entry.at >= LIVE_ANSWER_MS) {
        entries.delete(key);
        return undefined;
      }
      return { status: entry.status, headers: entry.headers, body: ring.subarray(entry.start, entry.start + entry.length) };
    },
    set(key, policy, rendered) {
      const length = rendered.body.length;
      if (!cacheable(policy) || rendered.status !== 200 || length > size / 16) return;
      if (head + length > size) {
        // wrap: everything between head and the end of the ring is dropped with its entries
        while (first < queue.length && queue[first]!.start >= head) evictOldest();
        head = 0;
      }
      // drop the entries whose bytes the new body overwrites
      while (first < queue.length && queue[first]!.start < head + length && queue[first]!.start >= head) evictOldest();
      rendered.body.copy(ring, head);
      const entry: Entry = { key, start: head, length, status: rendered.status, headers: rendered.headers, at: now() };
      head += length;
      entries.set(key, entry);
      queue.push(entry);
    },
  };
}
