// The search index of a snapshot, per kind (videos, channels, playlists): the vocabulary in
// MiniSearch's radix tree (SearchableMap: exact, prefix and typo-tolerant term lookup) and, per
// term, its postings with BM25+ scores computed at build time in typed arrays: one score over every
// field (for the word as typed) and one over the short fields only (for typos and completions).
// Scoring a query is then a few additions per posting: MiniSearch's own search built a result
// object per matching document, 100–270 ms for a word found in 35,000 of 100,000 videos. The
// commonest one-word queries (a frequent term, a short prefix) are ranked at build time too: their
// best matches are stored as top lists, exactly what ranking them at query time gives.
import SearchableMap from 'minisearch/SearchableMap';
import type { Model } from '../model/build-model.ts';
import { KIND_SPECS, SEARCH_KINDS, searchDocuments, type SearchDocument, type SearchKind } from './documents.ts';
import { KEPT_MATCHES, postingsOf, rankWords, variantsOf, type Ranking } from './rank.ts';
import { allowsTypos, termsOf } from './text.ts';

export const SEARCH_FORMAT = 3;
/**
 * A one-word query whose variants hold at least this many postings gets a top list: ranking it
 * takes 0.1–1 ms, and such words ("tutorial", "live", "tu") are among the commonest queries.
 */
export const TOP_LIST_POSTINGS = 4000;
/** BM25+ parameters (as MiniSearch's defaults). */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;

export interface KindIndex {
  /** document id → key (video id, username, playlist id) */
  readonly keys: readonly string[];
  /** terms of alphabetic scripts → term id: exact, prefix and typo lookups */
  readonly vocabulary: SearchableMap<number>;
  /**
   * terms holding characters of scripts where one is a syllable or a word (text.ts allowsTypos:
   * Chinese, Japanese, Korean, Thai…) → term id: exact and prefix lookups only. Kept apart so that
   * a typo lookup never walks their thousands of first characters (2,130 at the root of the
   * PyVideo vocabulary, 88 without them: typo lookups 2.7 times faster).
   */
  readonly denseVocabulary: SearchableMap<number>;
  /** term id → number of documents holding it */
  readonly frequency: Int32Array;
  /** term id → start of its postings (and the end, at id + 1) */
  readonly starts: Int32Array;
  /** term id → end of its postings in the short fields, which come first in its list */
  readonly looseEnds: Int32Array;
  /** postings, term by term: those in the short fields, then those in descriptions only, each part by document id ascending; and their scores */
  readonly docs: Int32Array;
  readonly scoreAll: Float32Array;
  readonly scoreLoose: Float32Array;
  /** a word typed alone (a frequent term or prefix) → its ranking's best KEPT_MATCHES, made at build time */
  readonly tops: ReadonlyMap<string, Ranking>;
}

export interface BuildOptions {
  /** the postings from which a one-word query gets a top list (TOP_LIST_POSTINGS) */
  readonly topListPostings?: number;
}

export type SearchIndex = Readonly<Record<SearchKind, KindIndex>>;

/**
 * Two passes over the documents, so that memory stays at the final typed arrays: the first finds
 * the terms, their document frequencies and the field lengths; the second tokenises again and
 * writes each posting's scores in place.
 */
function buildKind(kind: SearchKind, keys: readonly string[], documents: readonly SearchDocument[], options: BuildOptions): KindIndex {
  const spec = KIND_SPECS[kind];
  const fields = spec.fields;
  const loose = fields.map((f) => spec.looseFields.includes(f));
  const boosts = fields.map((f) => spec.boost[f] ?? 1);
  const n = documents.length;
  const termIds = new Map<string, number>();
  const termList: string[] = [];
  const counts: number[] = [];
  const lengths = fields.map(() => new Int32Array(n));
  const looseCounts: number[] = [];
  const seen = new Set<number>();
  const seenLoose = new Set<number>();
  documents.forEach((doc, d) => {
    seen.clear();
    seenLoose.clear();
    fields.forEach((field, f) => {
      const terms = termsOf(String(doc[field] ?? ''));
      lengths[f]![d] = terms.length;
      for (const term of terms) {
        let id = termIds.get(term);
        if (id === undefined) {
          id = termList.length;
          termIds.set(term, id);
          termList.push(term);
          counts.push(0);
          looseCounts.push(0);
        }
        if (!seen.has(id)) {
          seen.add(id);
          counts[id]! += 1;
        }
        if (loose[f] && !seenLoose.has(id)) {
          seenLoose.add(id);
          looseCounts[id]! += 1;
        }
      }
    });
  });
  const frequency = Int32Array.from(counts);
  const average = lengths.map((l) => Math.max(1, l.reduce((sum, x) => sum + x, 0) / Math.max(1, n)));
  const starts = new Int32Array(termList.length + 1);
  for (let t = 0; t < termList.length; t++) starts[t + 1] = starts[t]! + frequency[t]!;
  const total = starts[termList.length]!;
  const docs = new Int32Array(total);
  const scoreAll = new Float32Array(total);
  const scoreLoose = new Float32Array(total);
  const looseEnds = new Int32Array(termList.length);
  for (let t = 0; t < termList.length; t++) looseEnds[t] = starts[t]! + looseCounts[t]!;
  // where the next posting of each term goes: in the short-field part, or after it
  const fillLoose = starts.slice(0, termList.length);
  const fillRest = looseEnds.slice();
  const tf = new Map<number, Int32Array>();
  documents.forEach((doc, d) => {
    tf.clear();
    fields.forEach((field, f) => {
      for (const term of termsOf(String(doc[field] ?? ''))) {
        const id = termIds.get(term)!;
        let perField = tf.get(id);
        if (!perField) tf.set(id, (perField = new Int32Array(fields.length)));
        perField[f]! += 1;
      }
    });
    for (const [id, perField] of tf) {
      const idf = Math.log(1 + (n - frequency[id]! + 0.5) / (frequency[id]! + 0.5));
      let all = 0;
      let looseScore = 0;
      for (let f = 0; f < fields.length; f++) {
        const count = perField[f]!;
        if (count === 0) continue;
        const score = boosts[f]! * idf * (DELTA + (count * (K1 + 1)) / (count + K1 * (1 - B + (B * lengths[f]![d]!) / average[f]!)));
        all += score;
        if (loose[f]) looseScore += score;
      }
      const at = looseScore > 0 ? fillLoose[id]!++ : fillRest[id]!++;
      docs[at] = d;
      scoreAll[at] = all;
      scoreLoose[at] = looseScore;
    }
  });
  const tops = new Map<string, Ranking>();
  const index = { keys, ...vocabulariesOf(termList), frequency, starts, looseEnds, docs, scoreAll, scoreLoose, tops };
  const least = options.topListPostings ?? TOP_LIST_POSTINGS;
  for (const word of topListWords(termList, frequency, least)) {
    if (postingsOf(index, variantsOf(index, word, true)) >= least) tops.set(word, rankWords(index, [word], KEPT_MATCHES));
  }
  return index;
}

/**
 * The words that may deserve a top list, in code-unit order: every prefix of terms (a term is its
 * own prefix) whose terms hold at least `least` postings together, a bound on what the word and
 * its completions hold (its typos are not counted).
 */
function topListWords(terms: readonly string[], frequency: Int32Array, least: number): string[] {
  const words: string[] = [];
  const order = terms.map((_, id) => id).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));
  // the postings of the terms in code-unit order, summed: a prefix's terms are a contiguous run
  const sums = new Float64Array(order.length + 1);
  order.forEach((id, i) => (sums[i + 1] = sums[i]! + frequency[id]!));
  const end = (prefix: string, from: number) => {
    let lo = from;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[order[mid]!]!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  order.forEach((id, i) => {
    const term = terms[id]!;
    // prefixes of this term not seen with the term before it (which shares its run)
    const before = i > 0 ? terms[order[i - 1]!]! : '';
    let shared = 0;
    while (shared < before.length && shared < term.length && before[shared] === term[shared]) shared++;
    for (let length = shared + 1; length <= term.length; length++) {
      const prefix = term.slice(0, length);
      if (sums[end(prefix, i)]! - sums[i]! >= least) words.push(prefix);
      else break; // longer prefixes hold fewer terms still
    }
  });
  return words.sort();
}

/** The two vocabularies of a kind's terms (listed by term id). */
function vocabulariesOf(terms: readonly string[]): Pick<KindIndex, 'vocabulary' | 'denseVocabulary'> {
  const entries = terms.map((t, id) => [t, id] as [string, number]);
  return {
    vocabulary: SearchableMap.from(entries.filter(([t]) => allowsTypos(t))),
    denseVocabulary: SearchableMap.from(entries.filter(([t]) => !allowsTypos(t))),
  };
}

export function buildSearchIndex(model: Model, options: BuildOptions = {}): SearchIndex {
  const docs = searchDocuments(model);
  return {
    videos: buildKind('videos', docs.videos.keys, docs.videos.documents, options),
    channels: buildKind('channels', docs.channels.keys, docs.channels.documents, options),
    playlists: buildKind('playlists', docs.playlists.keys, docs.playlists.documents, options),
  };
}

interface StoredKind {
  keys: readonly string[];
  /** term id order */
  terms: string[];
  frequency: string;
  starts: string;
  looseEnds: string;
  docs: string;
  scoreAll: string;
  scoreLoose: string;
  /** absent in snapshots built before top lists: every query is then ranked when asked */
  tops?: StoredTops;
}

/** Top lists back to back, word by word: the i-th word's matches are at starts[i]..starts[i + 1]. */
interface StoredTops {
  words: string[];
  totals: string;
  starts: string;
  ids: string;
  /** float64: the scores exactly as ranked */
  scores: string;
}

type Stored = Int32Array | Float32Array | Float64Array;
const toBase64 = (array: Stored) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
/** A typed array over the decoded bytes themselves when they are aligned for it (no copy: 25 MB less to free while a snapshot loads), else over a copy. */
function fromBase64<T extends Stored>(text: string, Type: { new (buffer: ArrayBuffer, offset?: number, length?: number): T; readonly BYTES_PER_ELEMENT: number }): T {
  const bytes = Buffer.from(text, 'base64');
  const size = Type.BYTES_PER_ELEMENT;
  if (bytes.byteOffset % size === 0 && bytes.buffer instanceof ArrayBuffer) return new Type(bytes.buffer, bytes.byteOffset, bytes.length / size);
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return new Type(copy);
}

/** The index as JSON text (typed arrays in base64), for the snapshot. */
export function serialiseSearchIndex(index: SearchIndex): string {
  const stored: Record<string, unknown> = { format: SEARCH_FORMAT };
  for (const k of SEARCH_KINDS) {
    const kind = index[k];
    const terms: string[] = new Array(kind.frequency.length);
    for (const [term, id] of kind.vocabulary) terms[id] = term;
    for (const [term, id] of kind.denseVocabulary) terms[id] = term;
    stored[k] = {
      keys: kind.keys, terms,
      frequency: toBase64(kind.frequency), starts: toBase64(kind.starts), looseEnds: toBase64(kind.looseEnds), docs: toBase64(kind.docs),
      scoreAll: toBase64(kind.scoreAll), scoreLoose: toBase64(kind.scoreLoose),
      tops: storeTops(kind.tops),
    } satisfies StoredKind;
  }
  return JSON.stringify(stored);
}

function storeTops(tops: ReadonlyMap<string, Ranking>): StoredTops {
  const words = [...tops.keys()];
  const starts = new Int32Array(words.length + 1);
  words.forEach((w, i) => (starts[i + 1] = starts[i]! + tops.get(w)!.ids.length));
  const ids = new Int32Array(starts[words.length]!);
  const scores = new Float64Array(ids.length);
  words.forEach((w, i) => {
    ids.set(tops.get(w)!.ids, starts[i]!);
    scores.set(tops.get(w)!.scores, starts[i]!);
  });
  const totals = Int32Array.from(words, (w) => tops.get(w)!.total);
  return { words, totals: toBase64(totals), starts: toBase64(starts), ids: toBase64(ids), scores: toBase64(scores) };
}

function loadTops(stored: StoredTops | undefined): Map<string, Ranking> {
  const tops = new Map<string, Ranking>();
  if (!stored) return tops;
  const totals = fromBase64(stored.totals, Int32Array);
  const starts = fromBase64(stored.starts, Int32Array);
  const ids = fromBase64(stored.ids, Int32Array);
  const scores = fromBase64(stored.scores, Float64Array);
  stored.words.forEach((w, i) => {
    tops.set(w, { ids: ids.subarray(starts[i]!, starts[i + 1]!), scores: scores.subarray(starts[i]!, starts[i + 1]!), total: totals[i]! });
  });
  return tops;
}

export function loadSearchIndex(json: string): SearchIndex {
  const stored = JSON.parse(json) as { format: number } & Record<SearchKind, StoredKind>;
  if (stored.format !== SEARCH_FORMAT) throw new Error(`search index format ${stored.format} is not ${SEARCH_FORMAT}: rebuild the snapshot`);
  const kind = (k: SearchKind): KindIndex => {
    const s = stored[k];
    return {
      keys: s.keys,
      ...vocabulariesOf(s.terms),
      frequency: fromBase64(s.frequency, Int32Array),
      starts: fromBase64(s.starts, Int32Array),
      looseEnds: fromBase64(s.looseEnds, Int32Array),
      docs: fromBase64(s.docs, Int32Array),
      scoreAll: fromBase64(s.scoreAll, Float32Array),
      scoreLoose: fromBase64(s.scoreLoose, Float32Array),
      tops: loadTops(s.tops),
    };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}
