// The search index of a snapshot, per kind (videos, channels, playlists): the vocabulary as a
// sorted array of terms (vocabulary.ts: exact and prefix lookups by binary search), a typo index
// of the terms found in short fields (typo-index.ts) and, per term, its postings with BM25+ scores
// computed at build time in typed arrays: one score over every field (for the word as typed) and
// one over the short fields only (for typos and completions, which match there only). Scoring a
// query is then a few additions per posting: MiniSearch's own search built a result object per
// matching document, 100–270 ms for a word found in 35,000 of 100,000 videos. The commonest
// one-word queries (a frequent term, a short prefix) are ranked at build time too: their best
// matches are stored as top lists, exactly what ranking them at query time gives.
import type { Model } from '../model/build-model.ts';
import { DESCRIPTION_CHARS, KIND_SPECS, SEARCH_KINDS, searchSources, type DocumentSource, type KindSources, type SearchDocument, type SearchKind } from './documents.ts';
import type { KindIndex, Ranking, SearchIndex } from './kind-index.ts';
import { editsFor, KEPT_MATCHES, postingsOf, rankWords, variantsOf } from './rank.ts';

export type { DocumentSource, KindIndex, KindSources, SearchIndex };
import { decodeArray, encodeArray, readDeltas, writeDeltas, type StoredArray } from './stored-arrays.ts';
import { TermTable, type TermIdList } from './term-table.ts';
import { allowsTypos } from './text.ts';
import { buildTypoIndex, type TypoIndex } from './typo-index.ts';
import { isVocabulary } from './vocabulary.ts';
import { runSteps, type Steps } from '../model/steps.ts';

/**
 * search.json's format: 5 since a posting's score is its document's own (fixed typical field
 * lengths, the term's rarity applied when a query is ranked); 4 had the vocabulary as a sorted
 * array and postings stored as deltas.
 */
export const SEARCH_FORMAT = 5;
/**
 * A one-word query whose variants hold at least this many postings gets a top list: ranking it
 * takes 0.1–1 ms, and such words ("tutorial", "live", "tu") are among the commonest queries.
 */
export const TOP_LIST_POSTINGS = 4000;
/** BM25+ parameters (as MiniSearch's defaults). */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;


export interface BuildOptions {
  /** the postings from which a one-word query gets a top list (TOP_LIST_POSTINGS) */
  readonly topListPostings?: number;
}

/**
 * A kind's terms and postings, without its typo index and top lists: what a set of documents
 * contributes, each posting's scores its document's alone (patch-index.ts merges such parts).
 */
export type KindPostings = Pick<KindIndex, 'keys' | 'terms' | 'frequency' | 'starts' | 'looseEnds' | 'docs' | 'scoreAll' | 'looseScoreStarts' | 'scoreLoose'>;


/**
 * Two passes: the first tokenises every document once, finds the terms, their document frequencies
 * and the field lengths, and keeps each document's terms as ids (4 bytes a term); the second walks
 * those ids and writes each posting's scores in place, so that memory stays at the final typed
 * arrays and the ids. Tokenising twice and a Map of term counts per document cost twice as much
 * (docs/performance.md, "Search index build"). The second pass reads the ids as the first wrote
 * them (in the order each term was first met) and counts a document's terms in a small array of
 * its own, so that a term costs it one read of a table by id instead of three (a map to the
 * sorted ids, a mark, a count per term and field over every term: docs/performance.md, "The
 * search index in a rebuild").
 */
function buildKind(kind: SearchKind, source: DocumentSource, options: BuildOptions): KindIndex {
  return finishKind(postingsOfKind(kind, source), options);
}

/**
 * The terms and postings of `source`'s documents, or of those of `only` alone (ids in ascending
 * order; patch-index.ts): the first pass and the scoring pass of buildKind. A posting's scores are
 * its document's own: BM25+'s term-frequency part over each field, its length against the field's
 * typical length (KIND_SPECS), times the field's boost; the term's rarity is applied when a query
 * is ranked (rank.ts). So a document indexed alone gets the same scores, to the last bit, as in
 * the whole corpus.
 */
export function postingsOfKind(kind: SearchKind, source: DocumentSource, only?: Int32Array, release = only === undefined): KindPostings {
  const { keys } = source;
  const spec = KIND_SPECS[kind];
  const fields = spec.fields;
  const fieldCount = fields.length;
  const loose = fields.map((f) => spec.looseFields.includes(f));
  const boosts = fields.map((f) => spec.boost[f] ?? 1);
  const n = source.count;
  const indexed = only ? only.length : n;
  const table = new TermTable();
  // per term id: its documents over every field and over the short ones, and the last document
  // (+ 1) each was counted in
  let counts = new Int32Array(1 << 12);
  let looseCounts = new Int32Array(1 << 12);
  let countedIn = new Int32Array(1 << 12);
  let looseCountedIn = new Int32Array(1 << 12);
  const lengths = fields.map(() => new Int32Array(n));
  // every document's terms as ids in order of first sight, field after field
  const tokens: TermIdList = { ids: new Int32Array(1 << 16), length: 0 };
  // the fields' code units where the source holds them so (no string made of each text)
  let packed = fields.map((_, f) => source.codeUnits?.(f));
  let descriptions = fields.map((_, f) => source.descriptionUtf8?.(f));
  for (let i = 0; i < indexed; i++) {
    const d = only ? only[i]! : i;
    for (let f = 0; f < fieldCount; f++) {
      const from = tokens.length;
      const units = packed[f];
      const utf8 = descriptions[f];
      const ascii = utf8 ? table.scanAscii(utf8.bytes, d === 0 ? 0 : utf8.ends[d - 1]!, utf8.ends[d]!, DESCRIPTION_CHARS, tokens) : -1;
      lengths[f]![d] = units ? table.scanUnits(units.units, d === 0 ? 0 : units.ends[d - 1]!, units.ends[d]!, tokens) : ascii >= 0 ? ascii : table.scan(source.text(d, f), tokens);
      if (table.size > counts.length) {
        counts = grown(counts, table.size);
        looseCounts = grown(looseCounts, table.size);
        countedIn = grown(countedIn, table.size);
        looseCountedIn = grown(looseCountedIn, table.size);
      }
      const ids = tokens.ids;
      const isLoose = loose[f]!;
      for (let t = from; t < tokens.length; t++) {
        const id = ids[t]!;
        if (countedIn[id] !== d + 1) {
          countedIn[id] = d + 1;
          counts[id]! += 1;
        }
        if (isLoose && looseCountedIn[id] !== d + 1) {
          looseCountedIn[id] = d + 1;
          looseCounts[id]! += 1;
        }
      }
    }
  }
  packed = [];
  descriptions = [];
  const firstSeen = table.terms;
  const tokenIds = tokens.ids;
  if (release) source.release?.(); // the text is not read again: its memory may go before the postings are made
  // term ids in code-unit order (first-seen id of each), and the terms so
  const order = codeUnitOrder(firstSeen);
  const terms = Array.from(order, (id) => firstSeen[id]!);
  const termCount = terms.length;
  const frequency = order.map((old) => counts[old]!);
  const looseCount = order.map((old) => looseCounts[old]!);
  const { starts, looseEnds, looseScoreStarts } = layoutOf(frequency, looseCount);
  const total = starts[termCount]!;
  const docs = new Int32Array(total);
  const scoreAll = new Float32Array(total);
  const scoreLoose = new Float32Array(looseScoreStarts[termCount]!);
  const typical = fields.map((f) => spec.typicalLength[f]!);
  // the scoring pass works in first-seen ids, as the tokens are: where each term's next postings
  // go is looked up by them (no id mapped per token)
  // where the next posting of each term goes: in the short-field part, or after it; and where its short-field scores start
  const fillLoose = new Int32Array(termCount);
  const fillRest = new Int32Array(termCount);
  const looseScoreAt = new Int32Array(termCount);
  for (let id = 0; id < termCount; id++) {
    const old = order[id]!;
    fillLoose[old] = starts[id]!;
    fillRest[old] = looseEnds[id]!;
    looseScoreAt[old] = looseScoreStarts[id]! - starts[id]!;
  }
  // per term: the document it was last met in (+ 1) and its place among that document's terms
  const metIn = new Int32Array(2 * termCount);
  // the document's terms (each once) and their counts per field (place × field), zeroed again after it
  let seen = new Int32Array(1 << 10);
  let tf = new Int32Array(seen.length * fieldCount);
  // per field: its length's part of BM25+'s denominator, and BM25+'s term-frequency part for a count of 1 and of 2 (the commonest)
  const norm = new Float64Array(fieldCount);
  const once = new Float64Array(fieldCount);
  const twice = new Float64Array(fieldCount);
  let at = 0;
  for (let i = 0; i < indexed; i++) {
    const d = only ? only[i]! : i;
    let seenCount = 0;
    for (let f = 0; f < fieldCount; f++) {
      const length = lengths[f]![d]!;
      const nf = (norm[f] = K1 * (1 - B + (B * length) / typical[f]!));
      once[f] = DELTA + (1 * (K1 + 1)) / (1 + nf);
      twice[f] = DELTA + (2 * (K1 + 1)) / (2 + nf);
      for (const end = at + length; at < end; at++) {
        const id = tokenIds[at]!;
        let place: number;
        if (metIn[2 * id] !== d + 1) {
          metIn[2 * id] = d + 1;
          if (seenCount === seen.length) {
            seen = grown(seen, seenCount + 1);
            tf = grown(tf, seen.length * fieldCount);
          }
          metIn[2 * id + 1] = place = seenCount;
          seen[seenCount++] = id;
        } else {
          place = metIn[2 * id + 1]!;
        }
        tf[place * fieldCount + f]! += 1;
      }
    }
    for (let s = 0; s < seenCount; s++) {
      const id = seen[s]!;
      let all = 0;
      let looseScore = 0;
      for (let f = 0; f < fieldCount; f++) {
        const count = tf[s * fieldCount + f]!;
        if (count === 0) continue;
        tf[s * fieldCount + f] = 0;
        // the same operations as for any count: the same score to the last bit
        const part = count === 1 ? once[f]! : count === 2 ? twice[f]! : DELTA + (count * (K1 + 1)) / (count + norm[f]!);
        const score = boosts[f]! * part;
        all += score;
        if (loose[f]) looseScore += score;
      }
      if (looseScore > 0) {
        const at = fillLoose[id]!++;
        docs[at] = d;
        scoreAll[at] = all;
        scoreLoose[looseScoreAt[id]! + at] = looseScore;
      } else {
        const at = fillRest[id]!++;
        docs[at] = d;
        scoreAll[at] = all;
      }
    }
  }
  return { keys, terms, frequency, starts, looseEnds, docs, scoreAll, looseScoreStarts, scoreLoose };
}

/**
 * A kind's index from its postings: its typo index, and the top lists of the words that deserve
 * one. `kept` says of a word whether its previous top list (`previous`) still holds: none of the
 * terms it may stand for changed (patch-index.ts); the others are ranked.
 */
export function finishKind(postings: KindPostings, options: BuildOptions, previous?: ReadonlyMap<string, Ranking>, kept?: (word: string) => boolean): KindIndex {
  const { terms, frequency, starts, looseEnds } = postings;
  const tops = new Map<string, Ranking>();
  // the typo index made when a top list is ranked (a patch that ranks none makes none: search.json does not hold it)
  let typos: TypoIndex | undefined;
  const index: KindIndex = { ...postings, get typos() { return (typos ??= typoIndexOf(terms, starts, looseEnds)); }, tops };
  const least = options.topListPostings ?? TOP_LIST_POSTINGS;
  for (const word of topListWords(terms, frequency, least)) {
    const before = previous?.get(word);
    if (before && kept!(word)) tops.set(word, before);
    else if (postingsOf(index, variantsOf(index, word, true)) >= least) tops.set(word, rankWords(index, [word], KEPT_MATCHES));
  }
  return index;
}

/** Ids of terms this many or more are sorted by their strings alone (a prefix and an id no longer fit a key). */
const KEYED_TERMS = 1 << 21;

/**
 * The ids of `terms` (distinct) in the code-unit order of their terms. A sort comparing the
 * strings reads two strings scattered over the heap at each of its n log n comparisons: the ids
 * are sorted instead as numbers, by a key of their first two code units (a term holds no U+0000,
 * so a term of one unit comes before those it starts), and only the ids of a run of the same two
 * units by their strings.
 */
function codeUnitOrder(terms: readonly string[]): Int32Array {
  const count = terms.length;
  if (count >= KEYED_TERMS) return Int32Array.from(terms.map((_, id) => id).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1)));
  const keys = new Float64Array(count);
  for (let id = 0; id < count; id++) {
    const term = terms[id]!;
    const prefix = term.charCodeAt(0) * 0x10000 + (term.length > 1 ? term.charCodeAt(1) : 0);
    keys[id] = prefix * KEYED_TERMS + id;
  }
  keys.sort();
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = keys[i]! % KEYED_TERMS;
  const byTerm = (a: number, b: number) => (terms[a]! < terms[b]! ? -1 : 1);
  for (let from = 0; from < count;) {
    const prefix = Math.floor(keys[from]! / KEYED_TERMS);
    let to = from + 1;
    while (to < count && Math.floor(keys[to]! / KEYED_TERMS) === prefix) to++;
    if (to - from > 1) order.subarray(from, to).sort(byTerm);
    from = to;
  }
  return order;
}

/** `array` copied into one of at least `least` elements (twice its size or more). */
function grown(array: Int32Array<ArrayBuffer>, least: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(Math.max(least, array.length * 2));
  copy.set(array);
  return copy;
}

/** Where each term's postings and short-field scores go, from its document counts (all fields; short fields). */
export function layoutOf(frequency: Int32Array, looseCount: Int32Array): Pick<KindIndex, 'starts' | 'looseEnds' | 'looseScoreStarts'> {
  const terms = frequency.length;
  const starts = new Int32Array(terms + 1);
  const looseEnds = new Int32Array(terms);
  const looseScoreStarts = new Int32Array(terms + 1);
  for (let t = 0; t < terms; t++) {
    if (!(looseCount[t]! >= 0 && looseCount[t]! <= frequency[t]!)) throw new Error(`search index: term ${t} has ${looseCount[t]} short-field postings of ${frequency[t]}`);
    starts[t + 1] = starts[t]! + frequency[t]!;
    looseEnds[t] = starts[t]! + looseCount[t]!;
    looseScoreStarts[t + 1] = looseScoreStarts[t]! + looseCount[t]!;
  }
  return { starts, looseEnds, looseScoreStarts };
}

/** The typo index of the terms that may stand for a typo: in a short field, and of a script that takes typos. */
function typoIndexOf(terms: readonly string[], starts: Int32Array, looseEnds: Int32Array): TypoIndex {
  const ids: number[] = [];
  terms.forEach((term, id) => {
    if (looseEnds[id]! > starts[id]! && allowsTypos(term)) ids.push(id);
  });
  return buildTypoIndex(terms, ids, editsFor);
}

/**
 * The words that may deserve a top list, in code-unit order: every prefix of terms (a term is its
 * own prefix) whose terms hold at least `least` postings together, a bound on what the word and
 * its completions hold (its typos are not counted). `terms` are in code-unit order.
 */
function topListWords(terms: readonly string[], frequency: Int32Array, least: number): string[] {
  const words: string[] = [];
  // the postings of the terms in code-unit order, summed: a prefix's terms are a contiguous run
  const sums = new Float64Array(terms.length + 1);
  terms.forEach((_, i) => (sums[i + 1] = sums[i]! + frequency[i]!));
  const end = (prefix: string, from: number) => {
    let lo = from;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  terms.forEach((term, i) => {
    // prefixes of this term not seen with the term before it (which shares its run)
    const before = i > 0 ? terms[i - 1]! : '';
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

/** The documents of every kind, as searchDocuments (documents.ts) makes them. */
export type KindDocuments = Readonly<Record<SearchKind, { readonly keys: readonly string[]; readonly documents: readonly SearchDocument[] }>>;

/** The sources of documents held as objects: a field's text is `String(doc[field] ?? '')`. */
export function documentSources(docs: KindDocuments): KindSources {
  const source = (k: SearchKind): DocumentSource => {
    const { keys, documents } = docs[k];
    const fields = KIND_SPECS[k].fields;
    return { keys, count: documents.length, text: (d, f) => String(documents[d]![fields[f]!] ?? '') };
  };
  return { videos: source('videos'), channels: source('channels'), playlists: source('playlists') };
}

export function buildSearchIndex(model: Model, options: BuildOptions = {}): SearchIndex {
  return buildSearchIndexOf(searchSources(model), options);
}

/** The index of every kind's documents (the build packs them on its main thread and indexes them on a worker: packed-documents.ts). */
export function buildSearchIndexOf(sources: KindSources, options: BuildOptions = {}): SearchIndex {
  return {
    videos: buildKind('videos', sources.videos, options),
    channels: buildKind('channels', sources.channels, options),
    playlists: buildKind('playlists', sources.playlists, options),
  };
}

// Stored as search.json (docs/search.md, "Stored as search.json"): one line of ASCII JSON,
//   {"format":4,"layoutChars":<12 digits>,"layout":{…},"data":"<base64>"}
// where the layout (keys, terms, top-list words, and where each array's base64 lies in data) is
// read first, and each array is then decoded from its own slice of the text: no parse of the
// whole text, no copy of the data as JSON strings.
const FORMAT_HEAD = `{"format":${SEARCH_FORMAT},"layoutChars":`;
const LAYOUT_DIGITS = 12;
const LAYOUT_HEAD = ',"layout":';
const DATA_HEAD = ',"data":"';
const DATA_TAIL = '"}';

const ARRAYS = ['frequency', 'looseCount', 'docs', 'scoreAll', 'scoreLoose', 'topTotals', 'topStarts', 'topIds', 'topScores'] as const;
type ArrayName = (typeof ARRAYS)[number];

interface StoredKind {
  keys: string[];
  terms: string[];
  /** the top lists' words, in the order of their lists */
  tops: string[];
  /** each array's base64: [first character in data, characters] */
  arrays: Record<ArrayName, [number, number]>;
}

/** JSON with every character outside ASCII escaped: the file's characters are its bytes. */
const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The index as the text of search.json. */
export function serialiseSearchIndex(index: SearchIndex): string {
  return [...serialisedPieces(index)].join('');
}

/**
 * The text of search.json in pieces (the head and layout, then each array's base64): what the
 * build writes, a megabyte at a time, without joining them into one string first.
 */
export function serialisedPieces(index: SearchIndex): string[] {
  const data: string[] = [];
  let at = 0;
  const store = (array: StoredArray): [number, number] => {
    const text = encodeArray(array);
    data.push(text);
    at += text.length;
    return [at - text.length, text.length];
  };
  const layout: Partial<Record<SearchKind, StoredKind>> = {};
  for (const k of SEARCH_KINDS) {
    const kind = index[k];
    const terms = kind.terms.length;
    const looseCount = Int32Array.from({ length: terms }, (_, t) => kind.looseEnds[t]! - kind.starts[t]!);
    const runs = new Int32Array(2 * terms);
    for (let t = 0; t < terms; t++) {
      runs[2 * t] = kind.looseEnds[t]!;
      runs[2 * t + 1] = kind.starts[t + 1]!;
    }
    const words = [...kind.tops.keys()];
    const lists = words.map((w) => kind.tops.get(w)!);
    const topStarts = new Int32Array(words.length + 1);
    lists.forEach((r, i) => (topStarts[i + 1] = topStarts[i]! + r.ids.length));
    const topIds = new Int32Array(topStarts[words.length]!);
    const topScores = new Float64Array(topIds.length);
    lists.forEach((r, i) => {
      topIds.set(r.ids, topStarts[i]!);
      topScores.set(r.scores, topStarts[i]!);
    });
    const arrays: Record<ArrayName, StoredArray> = {
      frequency: kind.frequency, looseCount, docs: writeDeltas(kind.docs, runs), scoreAll: kind.scoreAll, scoreLoose: kind.scoreLoose,
      topTotals: Int32Array.from(lists, (r) => r.total), topStarts, topIds, topScores,
    };
    layout[k] = { keys: [...kind.keys], terms: [...kind.terms], tops: words, arrays: Object.fromEntries(ARRAYS.map((name) => [name, store(arrays[name])])) as StoredKind['arrays'] };
  }
  const layoutText = asciiJson(layout);
  return [`${FORMAT_HEAD}${String(layoutText.length).padStart(LAYOUT_DIGITS, '0')}${LAYOUT_HEAD}`, layoutText, DATA_HEAD, ...data, DATA_TAIL];
}

/**
 * Strings packed into one: string i is text.slice(ends[i - 1] ?? 0, ends[i]). What a worker thread
 * sends instead of an array of strings, so the receiving thread copies one string (not tens of
 * thousands of small ones in one piece) and unpacks it in steps.
 */
export interface PackedStrings {
  readonly text: string;
  readonly ends: Int32Array;
}

export function packStrings(strings: readonly string[]): PackedStrings {
  const ends = new Int32Array(strings.length);
  let at = 0;
  strings.forEach((s, i) => (ends[i] = at += s.length));
  return { text: strings.join(''), ends };
}

/** The strings of `packed`, a run of them per step (steps.ts), checked to lie within its text. */
export function* unpackStrings(packed: PackedStrings): Steps<string[]> {
  const { text, ends } = packed;
  const strings = new Array<string>(ends.length);
  let from = 0;
  for (let i = 0; i < ends.length; i++) {
    const to = ends[i]!;
    if (!(to >= from && to <= text.length)) throw new Error('search index: packed strings are damaged');
    strings[i] = text.slice(from, to);
    from = to;
    if ((i + 1) % UNPACKED_PER_STEP === 0) yield;
  }
  return strings;
}

/** Strings unpacked between two chances to pause (a few hundred microseconds). */
const UNPACKED_PER_STEP = 4096;

/**
 * A kind's index as loadSearchIndex decodes it: every array made, every check done, the strings
 * packed. Everything in it is a typed array on a buffer of its own (transferable: a worker thread
 * can hand it over without copying, decodedBuffers) or a packed string.
 */
export interface DecodedKind {
  readonly keys: PackedStrings;
  readonly terms: PackedStrings;
  /** the top lists' words, in the order of their lists */
  readonly tops: PackedStrings;
  readonly frequency: Int32Array;
  readonly starts: Int32Array;
  readonly looseEnds: Int32Array;
  readonly docs: Int32Array;
  readonly scoreAll: Float32Array;
  readonly looseScoreStarts: Int32Array;
  readonly scoreLoose: Float32Array;
  readonly typoBuckets: Int32Array;
  readonly typoEntries: Int32Array;
  readonly typoByLength: Int32Array;
  readonly topTotals: Int32Array;
  readonly topStarts: Int32Array;
  readonly topIds: Int32Array;
  readonly topScores: Float64Array;
}

export type DecodedSearchIndex = Readonly<Record<SearchKind, DecodedKind>>;

const DECODED_ARRAYS = ['frequency', 'starts', 'looseEnds', 'docs', 'scoreAll', 'looseScoreStarts', 'scoreLoose', 'typoBuckets', 'typoEntries', 'typoByLength', 'topTotals', 'topStarts', 'topIds', 'topScores'] as const;

/** The array itself when it is all of its buffer, else a copy that is. */
function owning<T extends StoredArray>(array: T): T {
  if (array.byteOffset === 0 && array.byteLength === array.buffer.byteLength && array.buffer instanceof ArrayBuffer) return array;
  return array.slice() as T;
}

/** The buffers of a decoded index (each once): what postMessage may transfer instead of copying. */
export function decodedBuffers(decoded: DecodedSearchIndex): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const k of SEARCH_KINDS) {
    const kind = decoded[k];
    for (const name of DECODED_ARRAYS) buffers.add(kind[name].buffer as ArrayBuffer);
    for (const packed of [kind.keys, kind.terms, kind.tops]) buffers.add(packed.ends.buffer as ArrayBuffer);
  }
  return [...buffers];
}

/**
 * Decodes search.json (its text, or its bytes, which spares the caller decoding the whole file into
 * a string): the costly half of loading it, which the server runs on a worker thread
 * (docs/reliability.md, "Loading without a stall"). Refuses another format (the snapshot must be
 * rebuilt) and a damaged file (arrays of the wrong size, postings naming no document, terms out of
 * order).
 */
export function decodeSearchIndex(stored: string | Uint8Array, options: { readonly typos?: boolean } = {}): DecodedSearchIndex {
  const bytes = typeof stored === 'string' ? undefined : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const textOf = (from: number, to: number) => (bytes ? bytes.toString('latin1', from, to) : (stored as string).slice(from, to));
  const length = bytes ? bytes.length : (stored as string).length;
  const head = textOf(0, Math.min(length, 64));
  const format = /^\{"format":(\d+)/.exec(head)?.[1];
  if (format !== String(SEARCH_FORMAT)) throw new Error(`search index format ${format ?? 'unknown'} is not ${SEARCH_FORMAT}: rebuild the snapshot`);
  const layoutAt = FORMAT_HEAD.length + LAYOUT_DIGITS + LAYOUT_HEAD.length;
  const layoutChars = Number(head.slice(FORMAT_HEAD.length, FORMAT_HEAD.length + LAYOUT_DIGITS));
  const dataAt = layoutAt + layoutChars + DATA_HEAD.length;
  if (!/^\d+$/.test(head.slice(FORMAT_HEAD.length, FORMAT_HEAD.length + LAYOUT_DIGITS)) || dataAt > length - DATA_TAIL.length || textOf(layoutAt + layoutChars, dataAt) !== DATA_HEAD) {
    throw new Error('search index: the file is damaged (no layout)');
  }
  const layout = JSON.parse(textOf(layoutAt, layoutAt + layoutChars)) as Record<SearchKind, StoredKind>;
  const dataLength = length - DATA_TAIL.length - dataAt;
  const kind = (k: SearchKind): DecodedKind => {
    const s = layout[k];
    if (!s || !Array.isArray(s.keys) || !Array.isArray(s.tops) || !Array.isArray(s.terms) || !isVocabulary(s.terms)) throw new Error(`search index: the ${k} vocabulary is damaged`);
    if (!s.keys.every((key) => typeof key === 'string')) throw new Error(`search index: the ${k} keys are damaged`);
    const base64Of = (name: ArrayName) => {
      const [from, chars] = s.arrays?.[name] ?? [];
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(chars) || from! < 0 || chars! < 0 || from! + chars! > dataLength) throw new Error(`search index: ${k} ${name} is out of the file`);
      return textOf(dataAt + from!, dataAt + from! + chars!);
    };
    const array = <T extends StoredArray>(name: ArrayName, Type: Parameters<typeof decodeArray<T>>[1], count: number): T => owning(decodeArray(base64Of(name), Type, count, `${k} ${name}`));
    const terms = s.terms.length;
    const frequency = array<Int32Array>('frequency', Int32Array, terms);
    const looseCount = array<Int32Array>('looseCount', Int32Array, terms);
    const { starts, looseEnds, looseScoreStarts } = layoutOf(frequency, looseCount);
    const postings = starts[terms]!;
    const runs = new Int32Array(2 * terms);
    for (let t = 0; t < terms; t++) {
      runs[2 * t] = looseEnds[t]!;
      runs[2 * t + 1] = starts[t + 1]!;
    }
    const docs = readDeltas(Buffer.from(base64Of('docs'), 'base64'), runs, postings, s.keys.length);
    const topTotals = array<Int32Array>('topTotals', Int32Array, s.tops.length);
    const topStarts = array<Int32Array>('topStarts', Int32Array, s.tops.length + 1);
    const kept = topStarts[s.tops.length] ?? 0;
    const topIds = array<Int32Array>('topIds', Int32Array, kept);
    const topScores = array<Float64Array>('topScores', Float64Array, kept);
    for (let i = 0; i < s.tops.length; i++) {
      const from = topStarts[i]!;
      const to = topStarts[i + 1]!;
      if (!(from >= 0 && from <= to && to <= kept)) throw new Error(`search index: ${k} top list ${i} is damaged`);
    }
    for (const id of topIds) if (!(id >= 0 && id < s.keys.length)) throw new Error(`search index: a ${k} top list names no document`);
    // a rebuild's worker reads the served index for its postings alone (patch-index.ts): no typo index
    const typos = options.typos === false ? buildTypoIndex(s.terms, [], editsFor) : typoIndexOf(s.terms, starts, looseEnds);
    return {
      keys: packStrings(s.keys), terms: packStrings(s.terms), tops: packStrings(s.tops.map(String)),
      frequency, starts, looseEnds, docs,
      scoreAll: array<Float32Array>('scoreAll', Float32Array, postings),
      looseScoreStarts,
      scoreLoose: array<Float32Array>('scoreLoose', Float32Array, looseScoreStarts[terms]!),
      typoBuckets: typos.buckets, typoEntries: typos.entries, typoByLength: typos.byLength,
      topTotals, topStarts, topIds, topScores,
    };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}

/**
 * The index from its decoded parts, in steps (steps.ts): the cheap half of loading, a few
 * milliseconds of unpacking strings at most between two pauses. `decoded` may come from a worker
 * thread, so its sizes are checked again here.
 */
export function* assembleSearchIndex(decoded: DecodedSearchIndex): Steps<SearchIndex> {
  const kind = function* (k: SearchKind): Steps<KindIndex> {
    const d = decoded[k];
    const keys = yield* unpackStrings(d.keys);
    const terms = yield* unpackStrings(d.terms);
    const words = yield* unpackStrings(d.tops);
    const n = terms.length;
    if (d.frequency.length !== n || d.starts.length !== n + 1 || d.looseEnds.length !== n || d.looseScoreStarts.length !== n + 1
      || d.docs.length !== d.starts[n] || d.scoreAll.length !== d.docs.length || d.scoreLoose.length !== d.looseScoreStarts[n]
      || d.topTotals.length !== words.length || d.topStarts.length !== words.length + 1 || d.topIds.length !== d.topScores.length) {
      throw new Error(`search index: the decoded ${k} index is damaged`);
    }
    const tops = new Map<string, Ranking>();
    words.forEach((word, i) => {
      const from = d.topStarts[i]!;
      const to = d.topStarts[i + 1]!;
      tops.set(word, { ids: d.topIds.subarray(from, to), scores: d.topScores.subarray(from, to), total: d.topTotals[i]! });
    });
    return {
      keys, terms, frequency: d.frequency, starts: d.starts, looseEnds: d.looseEnds, docs: d.docs, scoreAll: d.scoreAll,
      looseScoreStarts: d.looseScoreStarts, scoreLoose: d.scoreLoose,
      typos: { buckets: d.typoBuckets, entries: d.typoEntries, byLength: d.typoByLength }, tops,
    };
  };
  return { videos: yield* kind('videos'), channels: yield* kind('channels'), playlists: yield* kind('playlists') };
}

/** The index stored by serialiseSearchIndex (its text or its bytes), decoded and assembled at once. */
export function loadSearchIndex(stored: string | Uint8Array): SearchIndex {
  return runSteps(assembleSearchIndex(decodeSearchIndex(stored)));
}
