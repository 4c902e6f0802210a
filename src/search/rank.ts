// How a query matches and ranks in one kind's index (docs/search.md: typo-tolerant, prefix-aware,
// best first). Every word must match (AND). A word matches its own term in every field (title over
// tags over description, by the boosts), and in the short fields also its typos (one edit from 4
// letters, two from 8, a swap of two letters counting as one; none in scripts where a character is
// a syllable or a word) and, for the last word, as a user is still typing it, every indexed term it
// is a prefix of: no completion is left out, so `total` is the exact number of matches. A
// document's score is the sum over words of the best score of the word's variants (typos weigh
// 0.45, completions 0.5); ties by document id.
import type { KindIndex, Ranking } from './kind-index.ts';

export type { Ranking };
import { allowsTypos } from './text.ts';
import { forEachTypo } from './typo-index.ts';
import { findTerm, prefixRun } from './vocabulary.ts';

/** Matches a ranking keeps when not asked for more: 10 pages of 20. */
export const KEPT_MATCHES = 200;
const COMPLETION_WEIGHT = 0.5;
const TYPO_WEIGHT = 0.45;

/** Matches, best first: document ids of the kind and their scores, for the first `ids.length` of `total` matches. */

/** The edits a word of `length` code units may take, in scripts that take typos. */
export const editsFor = (length: number): number => (length >= 8 ? 2 : length >= 4 ? 1 : 0);
const typos = (term: string): number => (allowsTypos(term) ? editsFor(term.length) : 0);

const idfOf = (index: KindIndex, id: number) => {
  const df = index.frequency[id]!;
  return Math.log(1 + (index.keys.length - df + 0.5) / (df + 0.5));
};

/**
 * A word's variants: its own term (`exact`, scored over every field, weight 1; -1 when it is no
 * term) and the terms it may stand for (typos, completions), scored over the short fields only,
 * each with its weight. Typed arrays: a one-letter prefix stands for thousands of terms.
 */
export interface Variants {
  readonly exact: number;
  /** the weight of the exact term's postings: its rarity (idf) */
  readonly exactWeight: number;
  readonly ids: Int32Array;
  readonly weights: Float64Array;
}

/**
 * Words' variants remembered per index, up to this many variants in all (about 12 bytes each):
 * the typo lookup takes 0.1–0.5 ms, and words recur across queries far more than whole queries do.
 */
export const CACHED_VARIANTS = 1_000_000;
interface VariantCache { readonly words: Map<string, Variants>; size: number }
const variantCaches = new WeakMap<KindIndex, VariantCache>();

/**
 * A word's variants. The stored scores are each document's own (search-index.ts); a variant's
 * weight carries its rarity (idf), and when the word itself is a term, the word's rarity if that
 * is lower, so a rare completion never outranks the word as typed.
 */
export function variantsOf(index: KindIndex, word: string, last: boolean): Variants {
  let cache = variantCaches.get(index);
  if (!cache) variantCaches.set(index, (cache = { words: new Map(), size: 0 }));
  const key = last ? `${word}*` : word; // a term never holds '*'
  let variants = cache.words.get(key);
  if (variants) {
    cache.words.delete(key);
  } else {
    variants = findVariants(index, word, last);
    cache.size += variants.ids.length + 1;
    while (cache.size > CACHED_VARIANTS && cache.words.size > 0) {
      const [oldest, dropped] = cache.words.entries().next().value!;
      cache.words.delete(oldest);
      cache.size -= dropped.ids.length + 1;
    }
  }
  cache.words.set(key, variants);
  return variants;
}

function findVariants(index: KindIndex, word: string, last: boolean): Variants {
  const weights = new Map<number, number>();
  const exact = findTerm(index.terms, word);
  const add = (id: number, base: number, reference: number | undefined) => {
    if (id === exact) return;
    const idf = idfOf(index, id);
    const weight = base * (reference === undefined ? idf : Math.min(idf, reference));
    if (!(weights.get(id)! >= weight)) weights.set(id, weight);
  };
  const exactIdf = exact === -1 ? undefined : idfOf(index, exact);
  // Completions and typos match in the short fields only: a term found in none of them (its
  // short-field postings are none) is skipped, as it would add nothing.
  const inShortFields = (id: number) => index.looseEnds[id]! > index.starts[id]!;
  if (last) {
    // Every completion counts. They are weighed with the rarity of the word as typed, or when it
    // is no term, of its commonest completion (in any field): a rare completion matches, but never
    // outranks the completion a user most likely means only for being rare.
    const [from, to] = prefixRun(index.terms, word);
    let commonest = -1;
    for (let id = from; id < to; id++) {
      if (id !== exact && (commonest === -1 || index.frequency[id]! > index.frequency[commonest]!)) commonest = id;
    }
    const reference = exactIdf ?? (commonest === -1 ? undefined : idfOf(index, commonest));
    for (let id = from; id < to; id++) if (inShortFields(id)) add(id, COMPLETION_WEIGHT, reference);
  }
  const distance = typos(word);
  if (distance > 0) {
    forEachTypo(index.typos, index.terms, word, distance, (id, edits) => add(id, TYPO_WEIGHT / edits, exactIdf));
    // two letters swapped, the commonest typo, counts as one edit
    for (let i = 0; i < word.length - 1; i++) {
      if (word[i] === word[i + 1]) continue;
      const id = findTerm(index.terms, word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
      if (id !== -1 && inShortFields(id)) add(id, TYPO_WEIGHT, exactIdf);
    }
  }
  return { exact, exactWeight: exactIdf ?? 0, ids: Int32Array.from(weights.keys()), weights: Float64Array.from(weights.values()) };
}

/** The postings a word's variants hold: what ranking it alone costs. */
export function postingsOf(index: KindIndex, variants: Variants): number {
  let sum = variants.exact === -1 ? 0 : index.starts[variants.exact + 1]! - index.starts[variants.exact]!;
  for (const id of variants.ids) sum += index.looseEnds[id]! - index.starts[id]!;
  return sum;
}

/**
 * Scores the postings `start`..`end` (their scores at `shift` from them) into `total` (the query's first word): each document keeps
 * its best score, and is added to `candidates` the first time. Returns the candidates' count.
 * A plain function over arrays, not a closure, so the hot loop keeps its values in registers.
 */
function scoreFirst(docs: Int32Array, scores: Float32Array, shift: number, start: number, end: number, weight: number, total: Float64Array, candidates: Int32Array, count: number): number {
  for (let p = start; p < end; p++) {
    const score = scores[p + shift]! * weight;
    if (score === 0) continue;
    const doc = docs[p]!;
    if (total[doc] === 0) candidates[count++] = doc;
    if (score > total[doc]!) total[doc] = score;
  }
  return count;
}

/** scoreFirst for a query of several words: also marks each candidate as matched by the first word (`matched` 1), saving a pass over them. */
function scoreFirstMarking(docs: Int32Array, scores: Float32Array, shift: number, start: number, end: number, weight: number, total: Float64Array, candidates: Int32Array, count: number, matched: Uint8Array): number {
  for (let p = start; p < end; p++) {
    const score = scores[p + shift]! * weight;
    if (score === 0) continue;
    const doc = docs[p]!;
    if (total[doc] === 0) {
      candidates[count++] = doc;
      matched[doc] = 1;
    }
    if (score > total[doc]!) total[doc] = score;
  }
  return count;
}

/** Scores the postings `start`..`end` of a later word into `word`, for the documents still matching (`matched` = `wi`). Returns the touched count. */
function scoreLater(docs: Int32Array, scores: Float32Array, shift: number, start: number, end: number, weight: number, matched: Uint8Array, wi: number, word: Float64Array, touched: Int32Array, count: number): number {
  for (let p = start; p < end; p++) {
    const doc = docs[p]!;
    if (matched[doc] !== wi) continue;
    const score = scores[p + shift]! * weight;
    if (score === 0) continue;
    if (word[doc] === 0) touched[count++] = doc;
    if (score > word[doc]!) word[doc] = score;
  }
  return count;
}

/** Per-index working memory, reused by every query: typed arrays only, so a query makes no garbage for the collector to trace. */
interface Scratch {
  readonly total: Float64Array;
  readonly word: Float64Array;
  readonly matched: Uint8Array;
  readonly candidates: Int32Array;
  readonly touched: Int32Array;
  /** the best scores of a ranking, for its threshold */
  readonly heap: Float64Array;
  /** the candidates' scores for each word, a row of one per word (rankByRarest); grown as needed up to one per document */
  perWord: Float64Array;
}
const scratches = new WeakMap<KindIndex, Scratch>();

function scratchOf(index: KindIndex): Scratch {
  let scratch = scratches.get(index);
  if (!scratch) {
    const n = index.keys.length;
    scratch = {
      total: new Float64Array(n), word: new Float64Array(n), matched: new Uint8Array(n), candidates: new Int32Array(n), touched: new Int32Array(n),
      heap: new Float64Array(KEPT_MATCHES), perWord: new Float64Array(0),
    };
    scratches.set(index, scratch);
  }
  return scratch;
}

/**
 * The `keep`-th best of the totals of `docs` (`keep` ≤ `count`): the smallest of a min-heap of the
 * best `keep` seen so far, which most scores only compare with. A native sort of 35,000 scores
 * took 3.5 ms, most of the cost of ranking a word as common as "tutorial".
 */
function keepThreshold(heap: Float64Array, total: Float64Array, docs: Int32Array, count: number, keep: number): number {
  for (let i = 0; i < count; i++) {
    const score = total[docs[i]!]!;
    if (i < keep) {
      // sift up
      let at = i;
      while (at > 0) {
        const parent = (at - 1) >>> 1;
        if (heap[parent]! <= score) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = score;
    } else if (score > heap[0]!) {
      // replace the smallest, sift down
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= keep) break;
        if (child + 1 < keep && heap[child + 1]! < heap[child]!) child++;
        if (heap[child]! >= score) break;
        heap[at] = heap[child]!;
        at = child;
      }
      heap[at] = score;
    }
  }
  return heap[0]!;
}

/**
 * A later word's postings list is probed for each candidate instead of read whole when it holds at
 * least this many postings per candidate: a galloping search costs about 2·log2(gap) comparisons
 * a candidate, a read of the list one cheap step a posting.
 */
const PROBE_GAP = 16;
/** what probing a list costs a candidate, and going over a candidate once a word, in reads of a posting (rankByRarest's choice) */
const PROBE_COST = 8;
const CANDIDATE_COST = 3;
/** what sorting the candidates costs each, in the same reads (a native sort of integers) */
const SORT_COST = 4;
/**
 * How much cheaper by that count the rarest word's way must be: its candidates, met in as many
 * runs as the word has variants, are visited in a scattered order, the first word's of
 * rankInOrder in a few sorted runs (measured at a million videos: docs/performance.md,
 * "Search at a million videos: several words from the rarest, videos found again")
 */
const MARGIN = 2;

/**
 * Ranks `words` (already normalised terms) in full, keeping the best `keep` matches. A query of
 * several words is ranked from its rarest word (`rankByRarest`), one whose rarest word is too
 * common for that, or when `byRarest` is false, word by word in the query's order
 * (`rankInOrder`): the two give the same ranking, to the last bit of every score.
 */
export function rankWords(index: KindIndex, words: readonly string[], keep: number, byRarest = true): Ranking {
  return (byRarest ? rankFromRarest(index, words, keep) : undefined) ?? rankInOrder(index, scratchOf(index), variantsOfAll(index, words), keep);
}

const variantsOfAll = (index: KindIndex, words: readonly string[]) => words.map((word, wi) => variantsOf(index, word, wi === words.length - 1));

/** The ranking from the query's rarest word (rankByRarest), or undefined when rankInOrder is the cheaper way (or the query is one word). */
export function rankFromRarest(index: KindIndex, words: readonly string[], keep: number): Ranking | undefined {
  return words.length > 1 ? rankByRarest(index, scratchOf(index), variantsOfAll(index, words), keep) : undefined;
}

/**
 * The first word scores straight into the totals (0 + its score is its score) and names the
 * candidates; each later word keeps the candidates it matches, adding its score. Each word's exact
 * term scores over every field (its whole postings list), its other variants over the short fields
 * (the front of theirs). Every posting of every word is read.
 */
function rankInOrder(index: KindIndex, scratch: Scratch, variants: readonly Variants[], keep: number): Ranking {
  const { total, word, matched, candidates, touched } = scratch;
  const words = variants.length;
  let candidateCount = 0;
  const first = variants[0]!;
  if (words === 1) {
    if (first.exact !== -1) candidateCount = scoreFirst(index.docs, index.scoreAll, 0, index.starts[first.exact]!, index.starts[first.exact + 1]!, first.exactWeight, total, candidates, candidateCount);
    for (let v = 0; v < first.ids.length; v++) {
      const id = first.ids[v]!;
      candidateCount = scoreFirst(index.docs, index.scoreLoose, index.looseScoreStarts[id]! - index.starts[id]!, index.starts[id]!, index.looseEnds[id]!, first.weights[v]!, total, candidates, candidateCount);
    }
  } else {
    if (first.exact !== -1) candidateCount = scoreFirstMarking(index.docs, index.scoreAll, 0, index.starts[first.exact]!, index.starts[first.exact + 1]!, first.exactWeight, total, candidates, candidateCount, matched);
    for (let v = 0; v < first.ids.length; v++) {
      const id = first.ids[v]!;
      candidateCount = scoreFirstMarking(index.docs, index.scoreLoose, index.looseScoreStarts[id]! - index.starts[id]!, index.starts[id]!, index.looseEnds[id]!, first.weights[v]!, total, candidates, candidateCount, matched);
    }
  }
  let found = candidateCount;
  for (let wi = 1; wi < words; wi++) {
    let count = 0;
    const later = variants[wi]!;
    if (later.exact !== -1) count = scoreLater(index.docs, index.scoreAll, 0, index.starts[later.exact]!, index.starts[later.exact + 1]!, later.exactWeight, matched, wi, word, touched, count);
    for (let v = 0; v < later.ids.length; v++) {
      const id = later.ids[v]!;
      count = scoreLater(index.docs, index.scoreLoose, index.looseScoreStarts[id]! - index.starts[id]!, index.starts[id]!, index.looseEnds[id]!, later.weights[v]!, matched, wi, word, touched, count);
    }
    for (let i = 0; i < count; i++) {
      const doc = touched[i]!;
      total[doc]! += word[doc]!;
      word[doc] = 0;
      matched[doc] = wi + 1;
    }
    // the last word's touched documents are the matches
    found = count;
  }
  if (words === 1) touched.set(candidates.subarray(0, candidateCount));
  const ranking = bestOf(scratch, found, keep);
  for (let i = 0; i < candidateCount; i++) {
    const doc = candidates[i]!;
    total[doc] = 0;
    matched[doc] = 0;
  }
  return ranking;
}

/**
 * The query's rarest word (fewest postings over its variants) names the candidates; each other
 * word, rarer first, keeps those it matches. A word's postings list (each part of it sorted by
 * document id) is read whole when it is short beside the candidates, and otherwise probed for each
 * candidate, in document order, by a galloping search: "live stream sourdough" costs about the
 * postings of "sourdough", not those of "live" (300,000 and more at a million videos). The rarest
 * word's scores stay in the totals, the others' in a row per candidate (`perWord`, moved along as
 * candidates drop out), and each total is summed in the query's word order as rankInOrder sums it,
 * so every score is the same to the last bit (floating-point addition is not associative). Scores
 * are positive (BM25+), so a word matches a document exactly where its best score there is not 0.
 * Undefined when that would cost more than rankInOrder's way (words about as common as each
 * other), or the rows would need more than a number per document: rankInOrder ranks the query then.
 */
function rankByRarest(index: KindIndex, scratch: Scratch, variants: readonly Variants[], keep: number): Ranking | undefined {
  const words = variants.length;
  const costs = variants.map((v) => postingsOf(index, v));
  const order = costs.map((_, wi) => wi).sort((a, b) => costs[a]! - costs[b]! || a - b);
  const rarest = order[0]!;
  // the rarest word's postings bound its candidates
  const bound = costs[rarest]!;
  const cells = bound * words;
  if (cells > Math.max(index.keys.length, 1 << 16)) return undefined;
  const { docs, scoreAll, scoreLoose, starts, looseEnds, looseScoreStarts } = index;
  // rankInOrder reads every posting and goes over the first word's candidates three times more;
  // this reads the rarest word's, goes over its candidates once a word, and of each other list
  // reads what is short beside the candidates or probes what is long (in document order: the
  // candidates are sorted first)
  let inOrder = CANDIDATE_COST * costs[0]!;
  for (const cost of costs) inOrder += cost;
  let byRarest = bound * (1 + CANDIDATE_COST * (words - 1));
  let probing = false;
  const partCost = (length: number) => {
    if (length < bound * PROBE_GAP) return length;
    probing = true;
    return bound * PROBE_COST;
  };
  for (let step = 1; step < words && byRarest * MARGIN < inOrder; step++) {
    const later = variants[order[step]!]!;
    if (later.exact !== -1) byRarest += partCost(looseEnds[later.exact]! - starts[later.exact]!) + partCost(starts[later.exact + 1]! - looseEnds[later.exact]!);
    for (let v = 0; v < later.ids.length; v++) byRarest += partCost(looseEnds[later.ids[v]!]! - starts[later.ids[v]!]!);
  }
  if (probing) byRarest += bound * SORT_COST;
  if (byRarest * MARGIN >= inOrder) return undefined;

  if (scratch.perWord.length < cells) scratch.perWord = new Float64Array(Math.max(cells, 2 * scratch.perWord.length));
  const { total, word, matched, candidates, touched, perWord } = scratch;
  const first = variants[rarest]!;
  let count = 0;
  if (first.exact !== -1) count = scoreFirstMarking(docs, scoreAll, 0, starts[first.exact]!, starts[first.exact + 1]!, first.exactWeight, total, candidates, count, matched);
  for (let v = 0; v < first.ids.length; v++) {
    const id = first.ids[v]!;
    count = scoreFirstMarking(docs, scoreLoose, looseScoreStarts[id]! - starts[id]!, starts[id]!, looseEnds[id]!, first.weights[v]!, total, candidates, count, matched);
  }
  if (probing) candidates.subarray(0, count).sort();

  for (let step = 1; step < words && count > 0; step++) {
    const wi = order[step]!;
    const later = variants[wi]!;
    // one part of a postings list: docs start..end (sorted), their scores at `shift` from them in `scores`
    const part = (scores: Float32Array, shift: number, start: number, end: number, weight: number) => {
      if (end - start < bound * PROBE_GAP) scanPart(docs, scores, shift, start, end, weight, matched, step, word);
      else probePart(docs, scores, shift, start, end, weight, candidates, count, word);
    };
    if (later.exact !== -1) {
      part(scoreAll, 0, starts[later.exact]!, looseEnds[later.exact]!, later.exactWeight);
      part(scoreAll, 0, looseEnds[later.exact]!, starts[later.exact + 1]!, later.exactWeight);
    }
    for (let v = 0; v < later.ids.length; v++) {
      const id = later.ids[v]!;
      part(scoreLoose, looseScoreStarts[id]! - starts[id]!, starts[id]!, looseEnds[id]!, later.weights[v]!);
    }
    count = keepMatching(candidates, count, word, matched, total, perWord, words, wi, step);
  }

  for (let k = 0; k < count; k++) {
    const doc = candidates[k]!;
    const at = k * words;
    perWord[at + rarest] = total[doc]!;
    let sum = perWord[at]!;
    for (let wi = 1; wi < words; wi++) sum += perWord[at + wi]!;
    total[doc] = sum;
    matched[doc] = 0;
    touched[k] = doc;
  }
  const ranking = bestOf(scratch, count, keep);
  for (let k = 0; k < count; k++) total[candidates[k]!] = 0;
  return ranking;
}

/**
 * After a word (`wi`, the `step`-th): keeps the candidates it matched, their rows moved up with
 * them and its score added at `wi`; clears what the others held. Returns how many are kept.
 */
function keepMatching(candidates: Int32Array, count: number, word: Float64Array, matched: Uint8Array, total: Float64Array, perWord: Float64Array, words: number, wi: number, step: number): number {
  let kept = 0;
  for (let k = 0; k < count; k++) {
    const doc = candidates[k]!;
    const score = word[doc]!;
    if (score === 0) {
      matched[doc] = 0;
      total[doc] = 0;
      continue;
    }
    word[doc] = 0;
    matched[doc] = step + 1;
    if (kept !== k) {
      for (let c = 0; c < words; c++) perWord[kept * words + c] = perWord[k * words + c]!;
      candidates[kept] = doc;
    }
    perWord[kept * words + wi] = score;
    kept++;
  }
  return kept;
}

/** A later word's postings start..end into `word`, for the candidates still matching (`matched` = `step`), each keeping its best score. */
function scanPart(docs: Int32Array, scores: Float32Array, shift: number, start: number, end: number, weight: number, matched: Uint8Array, step: number, word: Float64Array): void {
  for (let p = start; p < end; p++) {
    const doc = docs[p]!;
    if (matched[doc] !== step) continue;
    const score = scores[p + shift]! * weight;
    if (score > word[doc]!) word[doc] = score;
  }
}

/** The same for `count` candidates in document order, each looked up in the postings start..end (sorted) by a galloping search from the last one found. */
function probePart(docs: Int32Array, scores: Float32Array, shift: number, start: number, end: number, weight: number, candidates: Int32Array, count: number, word: Float64Array): void {
  let p = start;
  for (let k = 0; k < count; k++) {
    const doc = candidates[k]!;
    if (docs[p]! < doc) {
      // docs[lo] < doc; find hi with docs[hi] >= doc (or the end), doubling the step, then bisect
      let lo = p;
      let gap = 1;
      let hi = p + 1;
      while (hi < end && docs[hi]! < doc) {
        lo = hi;
        gap *= 2;
        hi = lo + gap;
      }
      if (hi > end) hi = end;
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1;
        if (docs[mid]! < doc) lo = mid;
        else hi = mid;
      }
      p = hi;
      if (p === end) return;
    }
    if (docs[p] === doc) {
      const score = scores[p + shift]! * weight;
      if (score > word[doc]!) word[doc] = score;
      if (++p === end) return;
    }
  }
}

/** The best `keep` of the `found` documents in `touched` by their totals, best first (ties by document id). */
function bestOf(scratch: Scratch, found: number, keep: number): Ranking {
  const { total, touched } = scratch;
  const byScore = (a: number, b: number) => total[b]! - total[a]! || a - b;
  let ids: Int32Array;
  if (found > keep) {
    // Only the best `keep` are wanted: find the keep-th best score, then sort just the documents
    // at or above it.
    const heap = keep <= scratch.heap.length ? scratch.heap : new Float64Array(keep);
    const threshold = keepThreshold(heap, total, touched, found, keep);
    let kept = 0;
    for (let i = 0; i < found; i++) {
      const doc = touched[i]!;
      if (total[doc]! >= threshold) touched[kept++] = doc;
    }
    ids = touched.subarray(0, kept).sort(byScore).slice(0, keep);
  } else {
    ids = touched.subarray(0, found).sort(byScore).slice();
  }
  const scores = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) scores[i] = total[ids[i]!]!;
  return { ids, scores, total: found };
}
