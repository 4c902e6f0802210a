// How text becomes search terms, the same at index and query time: words split on anything that
// is not a letter or digit, lower-cased, accents removed, and the commonest English function
// words dropped (they match most documents and rank nothing).
const STOPWORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'its', 'of', 'on', 'or',
  'that', 'the', 'this', 'to', 'was', 'were', 'with',
]);

const SPLIT = /[^\p{L}\p{N}]+/u;

export function tokenize(text: string): string[] {
  return text.split(SPLIT);
}

/** A token as a term, or null when it is not worth indexing. */
export function processTerm(token: string): string | null {
  if (token === '') return null;
  const term = token.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
  return term === '' || STOPWORDS.has(term) ? null : term;
}

/** The terms of a text, in order. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term !== null) terms.push(term);
  }
  return terms;
}
