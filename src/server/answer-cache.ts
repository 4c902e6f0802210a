// Rendered answers of dynamic queries, by canonical URL, for one snapshot: a query asked again is
// answered without running its handler, and the compressed variants it was asked in are made once.
// Answers derived from the snapshot alone are kept until their space is needed; answers that carry
// live state for 2 s; answers for one caller (`private`) or of the moment (`none`) never.
//
// A kept snapshot answer is also reachable by the request targets it was asked at (`aliases`, up
// to MAX_ALIASES each), so the fast path (fast-path.ts) sends it as it sends a prerendered page:
// prepared header lines, no handler, no parsing. What it keeps is only what every caller gets;
// the per-request lines (RateLimit) are written by the layer that sends it, never stored.
//
// Memory: bodies and variants are copied into slabs of SLAB_BYTES allocated on demand, at most
// `bytes` in all (ANSWER_CACHE_BYTES by default; docs/performance.md "Long tail"); entries leave
// slab by slab in the order the slabs were filled (first in, first out). A slab is never written
// again: when its turn comes, a new one replaces it, so bytes a slow socket still holds stay the
// bytes it was given. A cache of separate buffers was measured to start a full garbage collection
// every 4 s under a search load: every kept body outlived the young generation; here the old
// generation sees one 4 MB slab die at a time.
//
// Answers that carry live state (search, channels, live) are kept 2 s in a ring of LIVE_RING_BYTES
// made once and written over in turn; an answer whose bytes were written over has left. A hit is
// copied out of the ring (young garbage, gone after the write), so no socket ever holds ring bytes,
// and is sent as an uncached answer is. In slabs, a stream of new searches made and dropped a 4 MB
// slab every fraction of a second, which doubled search's p99 (docs/performance.md, "Kept answers
// and search").
import type { CachePolicy } from '../api/endpoint.ts';
import type { Memo, Rendered } from '../api/respond.ts';
import { compress, MIN_COMPRESSIBLE, type Encoding } from '../http/encoding.ts';
import { ON_DEMAND } from '../http/negotiate.ts';
import { createSlabRing } from './slab-ring.ts';
import { chooseEncoding, headerSet, headerSlot, variantEtag, type HeaderSlot, type PreparedHeaders, type ResourceHeaders } from '../http/representation.ts';

export const LIVE_ANSWER_MS = 2000;
/** The answer cache's memory bound by default: every list page of a 100k catalogue's long-tail mix fits (docs/performance.md). */
export const ANSWER_CACHE_BYTES = 128 * 1024 * 1024;
export const SLAB_BYTES = 4 * 1024 * 1024;
/** The ring that keeps answers of live state: made once, written over in turn. */
export const LIVE_RING_BYTES = 16 * 1024 * 1024;
/** request targets remembered per answer for the fast path (different spellings of one query) */
export const MAX_ALIASES = 4;

/** A kept answer: the rendered answer and what sending it again needs. */
export interface CachedAnswer extends Rendered {
  readonly key: string;
  readonly policy: CachePolicy;
  readonly at: number;
  readonly resource: ResourceHeaders;
  /** compressed variants made so far (on demand, at request effort, as an uncached answer's) */
  readonly variants: Partial<Record<Encoding, Buffer>>;
  readonly prepared: Partial<Record<HeaderSlot, PreparedHeaders>>;
  readonly aliases: string[];
  /** slabs holding its bytes: it leaves with the first of them */
  readonly slabs: number[];
}

export interface AnswerCache extends Memo {
  get(key: string, policy: CachePolicy): CachedAnswer | undefined;
  set(key: string, policy: CachePolicy, rendered: Rendered): Rendered;
  /** Whether `rendered` is one of this cache's answers (what get and set return). */
  holds(rendered: Rendered): rendered is CachedAnswer;
  /** Remembers that `target` (a request target as sent) asks for `answer`, a snapshot answer. */
  alias(target: string, answer: CachedAnswer): void;
  /** The snapshot answer asked for at `target`, as the fast path looks it up. */
  byTarget(target: string): CachedAnswer | undefined;
  /** The variant of `answer` for `encoding`, made on first use and kept while `answer` is. */
  variant(answer: CachedAnswer, encoding: Encoding): Buffer;
  /** The prepared header set of one representation of `answer`. */
  headers(answer: CachedAnswer, encoding: Encoding | undefined, notModified: boolean): PreparedHeaders;
  /** bytes of bodies and variants held now */
  readonly size: number;
}

/** What a rendered 200 answer says on every representation (respond.ts renderAnswer's headers). */
function resourceOf(rendered: Rendered): ResourceHeaders {
  const fields: string[] = [];
  for (const [name, value] of Object.entries(rendered.headers)) {
    if (name !== 'etag' && name !== 'content-type') fields.push(name, value);
  }
  return { etag: rendered.headers['etag']!, contentType: rendered.headers['content-type']!, varies: rendered.body.length >= MIN_COMPRESSIBLE, fields };
}

export function createAnswerCache(options: { bytes?: number; slabBytes?: number; liveRingBytes?: number; now?: () => number } = {}): AnswerCache {
  const slabBytes = options.slabBytes ?? SLAB_BYTES;
  const slabCount = Math.max(2, Math.floor((options.bytes ?? ANSWER_CACHE_BYTES) / slabBytes));
  const now = options.now ?? Date.now;
  const entries = new Map<string, CachedAnswer>();
  const targets = new Map<string, CachedAnswer>();
  const kept = new WeakSet<CachedAnswer>();
  let size = 0;
  const cacheable = (policy: CachePolicy) => policy === 'snapshot' || policy === 'live';
  const live = keepLiveAnswers(options.liveRingBytes ?? LIVE_RING_BYTES, now);

  const drop = (entry: CachedAnswer) => {
    if (!kept.has(entry)) return;
    kept.delete(entry);
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    for (const target of entry.aliases) if (targets.get(target) === entry) targets.delete(target);
    size -= entry.body.length + (entry.variants.br?.length ?? 0) + (entry.variants.gzip?.length ?? 0);
  };

  // an answer leaves with the first slab holding bytes of it (slab-ring.ts)
  const ring = createSlabRing<CachedAnswer>(slabCount, slabBytes, drop);

  const cache: AnswerCache = {
    get size() { return size; },
    get(key, policy) {
      if (policy === 'live') return live.get(key);
      if (!cacheable(policy)) return undefined;
      return entries.get(key);
    },
    set(key, policy, rendered) {
      const length = rendered.body.length;
      if (!cacheable(policy) || rendered.status !== 200 || rendered.headers['etag'] === undefined || length > slabBytes) return rendered;
      if (policy === 'live') {
        live.set(key, rendered);
        return rendered;
      }
      const previous = entries.get(key);
      if (previous) drop(previous);
      const { copy, slab: at } = ring.store(rendered.body);
      const entry: CachedAnswer = {
        status: rendered.status, headers: rendered.headers, body: copy, key, policy, at: now(),
        resource: resourceOf(rendered), variants: {}, prepared: {}, aliases: [], slabs: [at],
      };
      ring.hold(at, entry);
      kept.add(entry);
      entries.set(key, entry);
      size += length;
      return entry;
    },
    holds: (rendered): rendered is CachedAnswer => kept.has(rendered as CachedAnswer),
    alias(target, answer) {
      if (!kept.has(answer) || answer.policy !== 'snapshot' || targets.get(target) === answer || answer.aliases.length >= MAX_ALIASES) return;
      answer.aliases.push(target);
      targets.set(target, answer);
    },
    byTarget(target) {
      return targets.get(target);
    },
    variant(answer, encoding) {
      const made = answer.variants[encoding];
      if (made) return made;
      const bytes = compress(answer.body, encoding, 'request');
      if (!kept.has(answer) || bytes.length > slabBytes) return bytes;
      const { copy, slab: at } = ring.store(bytes);
      if (!kept.has(answer)) return copy; // its own slab was the one replaced: it has left the cache
      answer.variants[encoding] = copy;
      if (!answer.slabs.includes(at)) {
        answer.slabs.push(at);
        ring.hold(at, answer);
      }
      size += copy.length;
      return copy;
    },
    headers(answer, encoding, notModified) {
      const slot = headerSlot(encoding, notModified);
      return answer.prepared[slot] ??= { flat: headerSet(answer.resource, encoding, encoding ? cache.variant(answer, encoding).length : answer.body.length, notModified) };
    },
  };
  return cache;
}

/** Where a live answer's bytes start in the ring, counted since the ring was made (wraps included). */
interface LiveEntry {
  readonly status: number;
  readonly headers: Rendered['headers'];
  readonly length: number;
  readonly start: number;
  readonly at: number;
}

/**
 * Answers of live state for 2 s, their bytes in one ring written over in turn: an answer leaves when
 * it expires or when its first byte is written over. `get` gives a copy of the bytes, as a
 * CachedAnswer that is not held (sent as an uncached answer is: http/negotiate.ts).
 */
function keepLiveAnswers(ringBytes: number, now: () => number): { get(key: string): CachedAnswer | undefined; set(key: string, rendered: Rendered): void } {
  let ring: Buffer | undefined;
  /** bytes written into the ring since it was made, the bytes skipped at each wrap included */
  let cursor = 0;
  /** oldest first (a Map keeps insertion order; a key set again moves to the end) */
  const entries = new Map<string, LiveEntry>();
  const gone = (entry: LiveEntry, t: number) => cursor - entry.start > ringBytes || t - entry.at >= LIVE_ANSWER_MS;
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (gone(entry, now())) {
        entries.delete(key);
        return undefined;
      }
      const at = entry.start % ringBytes;
      const copy: Rendered = { status: entry.status, headers: entry.headers, body: Buffer.from(ring!.subarray(at, at + entry.length)) };
      return { ...copy, key, policy: 'live', at: entry.at, resource: resourceOf(copy), variants: {}, prepared: {}, aliases: [], slabs: [] };
    },
    set(key, rendered) {
      const length = rendered.body.length;
      if (length > ringBytes / 4) return;
      ring ??= Buffer.allocUnsafeSlow(ringBytes);
      let at = cursor % ringBytes;
      if (at + length > ringBytes) {
        cursor += ringBytes - at;
        at = 0;
      }
      rendered.body.copy(ring, at);
      entries.delete(key);
      entries.set(key, { status: rendered.status, headers: rendered.headers, length, start: cursor, at: now() });
      cursor += length;
      const t = now();
      for (const [k, entry] of entries) {
        if (!gone(entry, t)) break;
        entries.delete(k);
      }
    },
  };
}

/**
 * The representation of a kept answer to send, as an uncached answer's (http/negotiate.ts
 * negotiateRendered): the client's preferred encoding, made on demand, when the body is large enough.
 */
export function chooseKeptVariant(cache: AnswerCache, answer: CachedAnswer, acceptEncoding: string | undefined): { encoding: Encoding | undefined; body: Buffer; etag: string } {
  const encoding = answer.resource.varies ? chooseEncoding(ON_DEMAND, acceptEncoding) : undefined;
  const body = encoding ? cache.variant(answer, encoding) : answer.body;
  return { encoding, body, etag: variantEtag(answer.resource.etag, encoding, body.length) };
}

const caches = new WeakMap<object, AnswerCache>();

/** The answer cache of one snapshot (made on first use), shared by node:http and the fast path. */
export function answersOf(snapshot: object): AnswerCache {
  let cache = caches.get(snapshot);
  if (!cache) caches.set(snapshot, (cache = createAnswerCache()));
  return cache;
}
