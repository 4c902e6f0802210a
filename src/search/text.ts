// How text becomes search terms, the same at index and query time (docs/search.md): words split
// on anything that is not a letter, digit or combining mark; runs of scripts written without
// spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese) split into words by ICU's dictionaries
// (Intl.Segmenter, word granularity); lower-cased, accents removed (the combining diacritics of
// Latin, Greek and Cyrillic letters only: other scripts' marks are part of their letters), and
// the commonest English function words dropped (they match most documents and rank nothing).
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'its', 'of', 'on', 'or',
  'that', 'the', 'this', 'to', 'was', 'were', 'with',
]);

const SPLIT = /[^\p{L}\p{N}\p{M}]+/u;
const WORD = /^[\p{L}\p{N}\p{M}]$/u;
/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Scripts where one or two characters make a word: a one-letter change is another word, never a typo. */
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const ASCII = /^[\x00-\x7f]*$/;
const DIACRITICS = /[\u0300-\u036f]/g;

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** A token as a term, or null when it is not worth indexing. */
export function processTerm(token: string): string | null {
  if (token === '') return null;
  const lower = token.toLowerCase();
  const term = ASCII.test(lower) ? lower : lower.normalize('NFKD').replace(DIACRITICS, '').normalize('NFC');
  return term === '' || STOPWORDS.has(term) ? null : term;
}

/** Whether a code point is part of a word (a letter, digit or mark), as SPLIT splits on the others. */
export const isWordCodePoint = (codePoint: number): boolean => WORD.test(String.fromCodePoint(codePoint));

/**
 * The terms of one word of a text (a maximal run of letters, digits and marks, as SPLIT leaves
 * them): what termsOf makes of it, split by ICU's dictionaries when it holds a script written
 * without spaces (term-table.ts reads the index's ASCII words itself).
 */
export function termsOfToken(token: string): string[] {
  const terms: string[] = [];
  if (!UNSPACED.test(token)) {
    const term = processTerm(token);
    if (term !== null) terms.push(term);
    return terms;
  }
  for (const part of segmenter.segment(token)) {
    if (!part.isWordLike) continue;
    const term = processTerm(part.segment);
    if (term !== null) terms.push(term);
  }
  return terms;
}

/** The terms of a text, in order: those of each of its words (term-table.ts reads the index's texts the same way). */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const token of text.split(SPLIT)) if (token !== '') terms.push(...termsOfToken(token));
  return terms;
}

/** Whether a term may match its typos: not in scripts where each character is a syllable or a word. */
export const allowsTypos = (term: string): boolean => !DENSE.test(term);
