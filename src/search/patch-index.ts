// The search index of a rebuild from the served one: the documents whose digest changed (or that
// are new) are indexed alone, and merged with every posting of the served index whose document did
// not change. A posting's scores are its document's own (search-index.ts postingsOfKind: fixed
// typical field lengths, the term's rarity applied at query time), so the merge is the index a
// full build makes, byte for byte: the same terms in the same order, each term's postings in the
// same order with the same scores. Top lists are kept when none of the terms their word may stand
// for changed, else ranked again (docs/search.md, "The index in a rebuild").
import { DIGEST_CHARS, keysDigestOf, type DocumentDigests } from './document-digests.ts';
import { SEARCH_KINDS, type DocumentSource, type KindSources, type SearchKind } from './documents.ts';
import type { KindIndex, SearchIndex } from './kind-index.ts';
import { editsFor } from './rank.ts';
import { buildTypoIndex, editDistance, forEachTypo } from './typo-index.ts';
import { finishKind, layoutOf, postingsOfKind, type BuildOptions, type KindPostings } from './search-index.ts';

/** What a patch did to a kind: the documents indexed anew (changed or added) and those of the served index dropped (changed or removed). */
export interface KindPatch {
  readonly indexed: number;
  readonly dropped: number;
  /** top lists ranked again (the others were kept) */
  readonly ranked: number;
}

export type IndexPatch = Readonly<Record<SearchKind, KindPatch>>;

export interface PatchOptions extends BuildOptions {
  /**
   * false when the sources hold the text of the documents whose digest is not the served one's
   * alone (search-file.ts packChangedDocuments): a kind that must be indexed whole then cannot be,
   * and the patch throws
   */
  readonly complete?: boolean;
}

/**
 * The index of `sources` from `served` (an index of the same code's format) and the digests of
 * both: each kind patched (patchKind). The result is buildSearchIndexOf(sources)'s.
 */
export function patchSearchIndex(served: SearchIndex, servedDigests: DocumentDigests, sources: KindSources, digests: DocumentDigests, options: PatchOptions = {}): { index: SearchIndex; patch: IndexPatch } {
  for (const kind of SEARCH_KINDS) {
    const keys = served[kind].keys;
    if (servedDigests[kind].digests.length !== keys.length * DIGEST_CHARS || keysDigestOf(keys) !== servedDigests[kind].keysDigest) throw new Error(`the served ${kind} digests are not of its index's documents`);
  }
  const index = {} as Record<SearchKind, KindIndex>;
  const patch = {} as Record<SearchKind, KindPatch>;
  for (const kind of SEARCH_KINDS) {
    const result = patchKind(kind, served[kind], servedDigests[kind].digests, sources[kind], digests[kind].digests, options);
    index[kind] = result.index;
    patch[kind] = result.patch;
  }
  return { index, patch };
}

/**
 * One kind. The served documents kept are those whose key and digest are in the new documents;
 * they must keep their order (a document id only moves by the documents added or dropped before
 * it), so their postings stay sorted when renumbered; when they do not (a video's date changed its
 * place among the newest), the kind is indexed whole.
 */
export function patchKind(kind: SearchKind, served: KindIndex, servedDigests: string, source: DocumentSource, digests: string, options: PatchOptions): { index: KindIndex; patch: KindPatch } {
  const oldKeys = served.keys;
  const newKeys = source.keys;
  // the same documents under the same ids (the common rebuild: some texts changed, none added, removed or moved)
  const sameIds = newKeys.length === oldKeys.length && newKeys.every((key, d) => oldKeys[d] === key);
  let oldIdOf = (d: number): number | undefined => d;
  if (!sameIds) {
    const oldIds = new Map<string, number>();
    oldKeys.forEach((key, id) => oldIds.set(key, id));
    oldIdOf = (d) => oldIds.get(newKeys[d]!);
  }
  // served id → new id of the documents kept (-1: changed or removed)
  const renumbered = new Int32Array(oldKeys.length).fill(-1);
  const indexed: number[] = [];
  let last = -1;
  let inOrder = true;
  for (let d = 0; d < newKeys.length; d++) {
    const old = oldIdOf(d);
    if (old !== undefined && sameDigest(servedDigests, old, digests, d)) {
      renumbered[old] = d;
      if (old < last) inOrder = false;
      last = old;
    } else {
      indexed.push(d);
    }
  }
  const dropped = oldKeys.length - (newKeys.length - indexed.length);
  if (!inOrder) {
    if (options.complete === false) throw new Error(`${kind} documents moved in the order, and not every one's text is at hand`);
    const index = finishKind(postingsOfKind(kind, source, undefined, false), options);
    return { index, patch: { indexed: newKeys.length, dropped: oldKeys.length, ranked: index.tops.size } };
  }
  const added = postingsOfKind(kind, source, Int32Array.from(indexed));
  const { postings, changed } = merged(served, renumbered, added, newKeys);
  // the same documents under the same ids: a top list whose word may stand for no changed term is the served one
  let ranked = 0;
  const standsForChanged = sameIds ? standsForAny(changed) : undefined;
  const index = finishKind(postings, options, standsForChanged && served.tops, (word) => {
    const keep = !standsForChanged!(word);
    if (!keep) ranked++;
    return keep;
  });
  if (!sameIds) ranked = index.tops.size;
  return { index, patch: { indexed: indexed.length, dropped, ranked } };
}

/** Whether document `a`'s digest in `digestsA` is document `b`'s in `digestsB` (no string made). */
function sameDigest(digestsA: string, a: number, digestsB: string, b: number): boolean {
  for (let i = 0, x = a * DIGEST_CHARS, y = b * DIGEST_CHARS; i < DIGEST_CHARS; i++) if (digestsA.charCodeAt(x + i) !== digestsB.charCodeAt(y + i)) return false;
  return true;
}

/** Changed terms beyond which every top list is ranked again (the sets below would cost more than the rankings). */
const MOST_CHANGED_TERMS = 200_000;

/**
 * Whether a word typed alone may stand for any of `terms` (mayStandFor), asked of every top list's
 * word: their prefixes in a set (completions), and the terms in a typo index of their own, asked
 * within two edits (typos), instead of every term compared with every word (top-list words ×
 * changed terms: 10⁹ comparisons when a re-import rewrote every description of a million videos).
 */
export function standsForAny(terms: readonly string[]): (word: string) => boolean {
  if (terms.length > MOST_CHANGED_TERMS) return () => true;
  const prefixes = new Set<string>();
  for (const term of terms) for (let length = 1; length <= term.length; length++) prefixes.add(term.slice(0, length));
  const typos = buildTypoIndex(terms, terms.map((_, id) => id), () => 2);
  return (word) => {
    if (prefixes.has(word)) return true;
    // a word too short to take a typo takes no swap either (rank.ts findVariants)
    if (editsFor(word.length) === 0) return false;
    let found = false;
    forEachTypo(typos, terms, word, 2, () => (found = true));
    return found;
  };
}

/**
 * Whether `word` typed alone may stand for `term`: as itself or a completion (the term starts
 * with it), or as a typo (within two edits: rank.ts takes at most two, a swap of two letters as
 * one). A superset of rank.ts variantsOf's terms, and of the terms whose frequency weighs them.
 */
export function mayStandFor(word: string, term: string): boolean {
  if (term.startsWith(word)) return true;
  // a word too short to take a typo takes no swap either (rank.ts findVariants)
  if (editsFor(word.length) === 0) return false;
  return editDistance(word, term, 2) <= 2;
}

/**
 * The served postings of the kept documents (renumbered) merged with those of the documents
 * indexed anew, term by term in code-unit order, each part (short fields, then the rest) by
 * document id; and the terms whose postings are not exactly the served ones (new, gone, or with a
 * posting added, dropped or scored otherwise).
 */
function merged(served: KindIndex, renumbered: Int32Array, added: KindPostings, keys: readonly string[]): { postings: KindPostings; changed: string[] } {
  const oldTerms = served.terms;
  const newTerms = added.terms;
  // per served term: its kept postings in the short-field part and in the rest
  const keptLoose = new Int32Array(oldTerms.length);
  const keptRest = new Int32Array(oldTerms.length);
  for (let t = 0; t < oldTerms.length; t++) {
    const looseEnd = served.looseEnds[t]!;
    let loose = 0;
    let rest = 0;
    for (let p = served.starts[t]!; p < looseEnd; p++) if (renumbered[served.docs[p]!] !== -1) loose++;
    for (let p = looseEnd, end = served.starts[t + 1]!; p < end; p++) if (renumbered[served.docs[p]!] !== -1) rest++;
    keptLoose[t] = loose;
    keptRest[t] = rest;
  }
  // the merged vocabulary: [served id or -1, added id or -1] per term
  const fromOld: number[] = [];
  const fromNew: number[] = [];
  const terms: string[] = [];
  for (let i = 0, j = 0; i < oldTerms.length || j < newTerms.length;) {
    const a = i < oldTerms.length ? oldTerms[i]! : undefined;
    const b = j < newTerms.length ? newTerms[j]! : undefined;
    if (a !== undefined && keptLoose[i]! + keptRest[i]! === 0 && a !== b) {
      i++; // every posting of it dropped, and not added again: the term is gone
      continue;
    }
    if (b === undefined || (a !== undefined && a < b)) {
      terms.push(a!);
      fromOld.push(i++);
      fromNew.push(-1);
    } else if (a === undefined || b < a) {
      terms.push(b);
      fromOld.push(-1);
      fromNew.push(j++);
    } else {
      terms.push(a);
      fromOld.push(i++);
      fromNew.push(j++);
    }
  }
  const count = terms.length;
  const frequency = new Int32Array(count);
  const looseCount = new Int32Array(count);
  for (let t = 0; t < count; t++) {
    const o = fromOld[t]!;
    const n = fromNew[t]!;
    const loose = (o === -1 ? 0 : keptLoose[o]!) + (n === -1 ? 0 : added.looseEnds[n]! - added.starts[n]!);
    frequency[t] = (o === -1 ? 0 : keptLoose[o]! + keptRest[o]!) + (n === -1 ? 0 : added.starts[n + 1]! - added.starts[n]!);
    looseCount[t] = loose;
  }
  const { starts, looseEnds, looseScoreStarts } = layoutOf(frequency, looseCount);
  const total = starts[count]!;
  const docs = new Int32Array(total);
  const scoreAll = new Float32Array(total);
  const scoreLoose = new Float32Array(looseScoreStarts[count]!);
  const changed: string[] = [];
  // whether a served term lost a posting (its document changed or went)
  for (let t = 0; t < count; t++) {
    const o = fromOld[t]!;
    const n = fromNew[t]!;
    let at = starts[t]!;
    // the short-field part, then the rest: each a merge of the kept served postings and the added ones by document id
    const part = (oldFrom: number, oldTo: number, newFrom: number, newTo: number, loose: boolean) => {
      let p = oldFrom;
      let q = newFrom;
      for (;;) {
        while (p < oldTo && renumbered[served.docs[p]!] === -1) p++;
        const oldDoc = p < oldTo ? renumbered[served.docs[p]!]! : -1;
        const newDoc = q < newTo ? added.docs[q]! : -1;
        if (oldDoc === -1 && newDoc === -1) return;
        if (newDoc === -1 || (oldDoc !== -1 && oldDoc < newDoc)) {
          docs[at] = oldDoc;
          scoreAll[at] = served.scoreAll[p]!;
          if (loose) scoreLoose[looseScoreStarts[t]! + at - starts[t]!] = served.scoreLoose[served.looseScoreStarts[o]! + p - served.starts[o]!]!;
          p++;
        } else {
          docs[at] = newDoc;
          scoreAll[at] = added.scoreAll[q]!;
          if (loose) scoreLoose[looseScoreStarts[t]! + at - starts[t]!] = added.scoreLoose[added.looseScoreStarts[n]! + q - added.starts[n]!]!;
          q++;
        }
        at++;
      }
    };
    part(o === -1 ? 0 : served.starts[o]!, o === -1 ? 0 : served.looseEnds[o]!, n === -1 ? 0 : added.starts[n]!, n === -1 ? 0 : added.looseEnds[n]!, true);
    part(o === -1 ? 0 : served.looseEnds[o]!, o === -1 ? 0 : served.starts[o + 1]!, n === -1 ? 0 : added.looseEnds[n]!, n === -1 ? 0 : added.starts[n + 1]!, false);
    if (at !== starts[t + 1]) throw new Error(`search index patch: term ${terms[t]} merged ${at - starts[t]!} postings of ${frequency[t]}`);
    if (o === -1 || n !== -1 || keptLoose[o]! + keptRest[o]! !== served.starts[o + 1]! - served.starts[o]!) {
      if (o === -1 || !sameAsServed(served, o, renumbered, docs, scoreAll, scoreLoose, starts[t]!, looseEnds[t]!, starts[t + 1]!, looseScoreStarts[t]!)) changed.push(terms[t]!);
    }
  }
  // the terms gone
  for (let i = 0, t = 0; i < oldTerms.length; i++) {
    while (t < count && terms[t]! < oldTerms[i]!) t++;
    if (t >= count || terms[t] !== oldTerms[i]) changed.push(oldTerms[i]!);
  }
  return { postings: { keys, terms, frequency, starts, looseEnds, docs, scoreAll, looseScoreStarts, scoreLoose }, changed };
}

/** Whether the merged postings of a term are the served term `o`'s, renumbered: the same documents with the same scores in both parts. */
function sameAsServed(served: KindIndex, o: number, renumbered: Int32Array, docs: Int32Array, scoreAll: Float32Array, scoreLoose: Float32Array, from: number, looseEnd: number, to: number, looseScoreStart: number): boolean {
  const oldFrom = served.starts[o]!;
  if (to - from !== served.starts[o + 1]! - oldFrom || looseEnd - from !== served.looseEnds[o]! - oldFrom) return false;
  const oldLooseScores = served.looseScoreStarts[o]!;
  for (let k = 0; k < to - from; k++) {
    if (renumbered[served.docs[oldFrom + k]!] !== docs[from + k] || served.scoreAll[oldFrom + k] !== scoreAll[from + k]) return false;
    if (from + k < looseEnd && served.scoreLoose[oldLooseScores + k] !== scoreLoose[looseScoreStart + k]) return false;
  }
  return true;
}
