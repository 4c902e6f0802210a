// The search index of a snapshot, per kind (videos, channels, playlists): the vocabulary in
// MiniSearch's radix tree (SearchableMap: exact, prefix and typo-tolerant term lookup) and, per
// term, its postings with BM25+ scores computed at build time in typed arrays: one score over every
// field (for the word as typed) and one over the short fields only (for typos and completions).
// Scoring a query is then a few additions per posting: MiniSearch's own search built a result
// object per matching document, 100–270 ms for a word found in 35,000 of 100,000 videos.
import SearchableMap from 'minisearch/SearchableMap';
import type { Model } from '../model/build-model.ts';
import { KIND_SPECS, SEARCH_KINDS, searchDocuments, type SearchDocument, type SearchKind } from './documents.ts';
import { termsOf } from './text.ts';

/** Prefixes up to this length stand for their most frequent completions. */
export const SHORT_PREFIX = 3;
/** Completions kept per short prefix. */
export const COMPLETIONS = 8;
export const SEARCH_FORMAT = 2;
/** BM25+ parameters (as MiniSearch's defaults). */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;

export interface KindIndex {
  /** document id → key (video id, username, playlist id) */
  readonly keys: readonly string[];
  /** term → term id */
  readonly vocabulary: SearchableMap<number>;
  /** term id → number of documents holding it */
  readonly frequency: Int32Array;
  /** term id → start of its postings (and the end, at id + 1) */
  readonly starts: Int32Array;
  /** postings, term by term: document ids ascending, and their scores */
  readonly docs: Int32Array;
  readonly scoreAll: Float32Array;
  readonly scoreLoose: Float32Array;
  /** short prefix → term ids of its most frequent completions */
  readonly completions: ReadonlyMap<string, readonly number[]>;
}

export type SearchIndex = Readonly<Record<SearchKind, KindIndex>>;

/**
 * Two passes over the documents, so that memory stays at the final typed arrays: the first finds
 * the terms, their document frequencies and the field lengths; the second tokenises again and
 * writes each posting's scores in place.
 */
function buildKind(kind: SearchKind, keys: readonly string[], documents: readonly SearchDocument[]): KindIndex {
  const spec = KIND_SPECS[kind];
  const fields = spec.fields;
  const loose = fields.map((f) => spec.looseFields.includes(f));
  const boosts = fields.map((f) => spec.boost[f] ?? 1);
  const n = documents.length;
  const termIds = new Map<string, number>();
  const termList: string[] = [];
  const counts: number[] = [];
  const lengths = fields.map(() => new Int32Array(n));
  const seen = new Set<number>();
  documents.forEach((doc, d) => {
    seen.clear();
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
        }
        if (!seen.has(id)) {
          seen.add(id);
          counts[id]! += 1;
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
  const fill = starts.slice(0, termList.length);
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
      const at = fill[id]!++;
      docs[at] = d;
      scoreAll[at] = all;
      scoreLoose[at] = looseScore;
    }
  });
  const completions = new Map<string, number[]>();
  const byPrefix = new Map<string, number[]>();
  termList.forEach((term, id) => {
    for (let length = 1; length <= Math.min(SHORT_PREFIX, term.length - 1); length++) {
      const prefix = term.slice(0, length);
      const list = byPrefix.get(prefix);
      if (list) list.push(id);
      else byPrefix.set(prefix, [id]);
    }
  });
  for (const [prefix, ids] of byPrefix) {
    ids.sort((a, b) => frequency[b]! - frequency[a]! || (termList[a]! < termList[b]! ? -1 : 1));
    completions.set(prefix, ids.slice(0, COMPLETIONS));
  }
  return { keys, vocabulary: SearchableMap.from(termList.map((t, id) => [t, id] as [string, number])), frequency, starts, docs, scoreAll, scoreLoose, completions };
}

export function buildSearchIndex(model: Model): SearchIndex {
  const docs = searchDocuments(model);
  return {
    videos: buildKind('videos', docs.videos.keys, docs.videos.documents),
    channels: buildKind('channels', docs.channels.keys, docs.channels.documents),
    playlists: buildKind('playlists', docs.playlists.keys, docs.playlists.documents),
  };
}

interface StoredKind {
  keys: readonly string[];
  /** term id order */
  terms: string[];
  frequency: string;
  starts: string;
  docs: string;
  scoreAll: string;
  scoreLoose: string;
  completions: Record<string, readonly number[]>;
}

const toBase64 = (array: Int32Array | Float32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
function fromBase64<T extends Int32Array | Float32Array>(text: string, Type: new (buffer: ArrayBuffer) => T): T {
  const bytes = Buffer.from(text, 'base64');
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
    stored[k] = {
      keys: kind.keys, terms,
      frequency: toBase64(kind.frequency), starts: toBase64(kind.starts), docs: toBase64(kind.docs),
      scoreAll: toBase64(kind.scoreAll), scoreLoose: toBase64(kind.scoreLoose),
      completions: Object.fromEntries(kind.completions),
    } satisfies StoredKind;
  }
  return JSON.stringify(stored);
}

export function loadSearchIndex(json: string): SearchIndex {
  const stored = JSON.parse(json) as { format: number } & Record<SearchKind, StoredKind>;
  if (stored.format !== SEARCH_FORMAT) throw new Error(`search index format ${stored.format} is not ${SEARCH_FORMAT}: rebuild the snapshot`);
  const kind = (k: SearchKind): KindIndex => {
    const s = stored[k];
    return {
      keys: s.keys,
      vocabulary: SearchableMap.from(s.terms.map((t, id) => [t, id] as [string, number])),
      frequency: fromBase64(s.frequency, Int32Array),
      starts: fromBase64(s.starts, Int32Array),
      docs: fromBase64(s.docs, Int32Array),
      scoreAll: fromBase64(s.scoreAll, Float32Array),
      scoreLoose: fromBase64(s.scoreLoose, Float32Array),
      completions: new Map(Object.entries(s.completions)),
    };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}
