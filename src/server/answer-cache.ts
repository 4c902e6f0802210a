// Rendered answers of dynamic queries, by canonical URL, for one snapshot: a query asked again is
// answered without running its handler. Answers derived from the snapshot alone are kept until
// evicted (LRU, bounded in entries and bytes); answers that carry live state for 2 s; answers for
// one caller (`private`) or of the moment (`none`) never.
import type { CachePolicy } from '../api/endpoint.ts';
import type { Memo, Rendered } from '../api/respond.ts';

export const LIVE_ANSWER_MS = 2000;

export function createAnswerCache(options: { maxEntries?: number; maxBytes?: number; now?: () => number } = {}): Memo {
  const maxEntries = options.maxEntries ?? 5000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { rendered: Rendered; at: number }>();
  let bytes = 0;
  const cacheable = (policy: CachePolicy) => policy === 'snapshot' || policy === 'live';
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (entry) {
      bytes -= entry.rendered.body.length;
      entries.delete(key);
    }
  };
  return {
    get(key, policy) {
      if (!cacheable(policy)) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (policy === 'live' && now() - entry.at >= LIVE_ANSWER_MS) {
        drop(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.rendered;
    },
    set(key, policy, rendered) {
      if (!cacheable(policy) || rendered.status !== 200 || rendered.body.length > maxBytes / 16) return;
      drop(key);
      entries.set(key, { rendered, at: now() });
      bytes += rendered.body.length;
      while (entries.size > maxEntries || bytes > maxBytes) drop(entries.keys().next().value!);
    },
  };
}
