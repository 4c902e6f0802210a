// The index build reads its texts' terms through TermTable (src/search/term-table.ts): words of
// ASCII letters and digits without a string each, every other word through termsOf's own steps.
// The index is only the full build's when the terms are exactly termsOf's, in the same order:
// checked here on real multilingual titles and descriptions, on hand-picked edges (stopwords in
// any case, letters that lower-case to ASCII, marks, surrogates lone or paired, long words), on
// random texts mixing them, and on texts read from packed code units next to each other; termsOf
// itself (now made of the same per-word steps) against the tokeniser it had before.
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { TermTable, type TermIdList } from '../../../src/search/term-table.ts';
import { processTerm, termsOf } from '../../../src/search/text.ts';

/**
 * The tokeniser termsOf had before the index read its words through TermTable (a split of the
 * whole text, ICU's dictionaries for the runs of unspaced scripts, then processTerm): termsOf and
 * the table must both give its terms.
 */
function referenceTerms(text: string): string[] {
  const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
  const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
  let tokens = text.split(/[^\p{L}\p{N}\p{M}]+/u);
  if (unspaced.test(text)) tokens = tokens.flatMap((t) => (unspaced.test(t) ? [...segmenter.segment(t)].filter((p) => p.isWordLike).map((p) => p.segment) : [t]));
  return tokens.map(processTerm).filter((t): t is string => t !== null);
}

/** termsOf(text), checked against the reference first. */
function expectedTerms(text: string): string[] {
  const terms = termsOf(text);
  expect(terms, JSON.stringify(text.slice(0, 40))).toEqual(referenceTerms(text));
  return terms;
}

/** The terms TermTable finds in `text`, as strings. */
function scanned(table: TermTable, text: string): string[] {
  const out: TermIdList = { ids: new Int32Array(4), length: 0 };
  const count = table.scan(text, out);
  expect(count).toBe(out.length);
  return Array.from(out.ids.subarray(0, out.length), (id) => table.terms[id]!);
}

const EDGES = [
  '', ' ', '...', 'a', 'A', 'The', 'THE of And', 'the theory of everything', 'Is it? It is. ITS', 'an anaconda',
  'Python 3.12: what\'s new — and what’s not', 'café CAFÉ cafe\u0301 Café', 'naïve façade', 'Straße STRASSE',
  'K\u212a \u212aelvin', 'İstanbul ıi', 'ﬁle ﬂow', 'ＦＵＬＬ ｗｉｄｔｈ ｶﾀｶﾅ', 'x\u00b2 ½ ①', 'Ёлка ёлка',
  'Python プロダクトを活用した開発チーム運営 by Takahiro Ikeuchi / 池内 孝啓', 'ภาษาไทยง่าย', 'NetworkX를 이용한 네트워크',
  'हिन्दी भाषा', 'a\ud800b c\udc00d', '\ud83d\ude00x 😀😀 y😀z', '\ud835\udc00bc \ud835\udc00', 'x\ud835', '\udc00',
  'word\u0301 \u0301lead', 'tab\tnew\nline\u00a0nbsp\u2003em', 'a'.repeat(300), `${'b'.repeat(5000)} end`, `é${'c'.repeat(5000)}`,
  'x'.repeat(4097), 'some_snake_case and-kebab-case and camelCase', '42 0x1F 3.14 1e10', 'ÀÉÎÕÜ àéîõü', 'ΑΒΓ άέή', 'Ωmega ωmega',
];

/** Characters to draw random texts from: ASCII letters, digits and punctuation, accents, marks, unspaced scripts, surrogates. */
const PALETTE = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', ...'      .,;:-_/\'"()!?', 'the', 'The', 'of', 'and',
  ...'éÉçÇñÑüÜøØßłŁ', '\u0301', '\u0327', '\u212a', 'İ', 'ﬁ', 'Ａ', 'ｶ', '²', '½', '—', '’', '\u00a0',
  ...'開発運営チームภาษาไทย네트워크हिन्दीёЁ', '\ud83d\ude00', '\ud835\udc00', '\ud800', '\udc00',
];

function randomText(random: () => number): string {
  const length = Math.floor(random() * 40);
  let text = '';
  for (let i = 0; i < length; i++) text += PALETTE[Math.floor(random() * PALETTE.length)];
  return text;
}

/** A small deterministic generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('TermTable', () => {
  it('finds termsOf\'s terms in order, on edges of splitting, folding and stopwords', () => {
    const table = new TermTable();
    for (const text of EDGES) expect(scanned(table, text), JSON.stringify(text.slice(0, 40))).toEqual(expectedTerms(text));
  });

  it('gives one id per term, ids in order of first sight', () => {
    const table = new TermTable();
    const out: TermIdList = { ids: new Int32Array(1), length: 0 };
    table.scan('Data data DATA café Cafe\u0301 cafe the', out);
    expect(Array.from(out.ids.subarray(0, out.length))).toEqual([0, 0, 0, 1, 1, 1]);
    expect(table.terms).toEqual(['data', 'cafe']);
    table.scan('video Data', out);
    expect(Array.from(out.ids.subarray(6, out.length))).toEqual([2, 0]);
    expect(table.terms).toEqual(['data', 'cafe', 'video']);
  });

  it('finds termsOf\'s terms on random texts mixing scripts, marks and surrogates', () => {
    const random = generator(12);
    const table = new TermTable();
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(random);
      expect(scanned(table, text), JSON.stringify(text)).toEqual(expectedTerms(text));
    }
    // every term once: a table that lost a term would give it a second id
    expect(new Set(table.terms).size).toBe(table.terms.length);
  });

  it('reads packed texts side by side without crossing from one into the next', () => {
    const texts = ['a\ud835', '\udc00b', 'end', 'caf', 'e\u0301', '', 'The', 'x'];
    const units = new Uint16Array(texts.reduce((sum, t) => sum + t.length, 0));
    const ends: number[] = [];
    let at = 0;
    for (const text of texts) {
      for (let i = 0; i < text.length; i++) units[at++] = text.charCodeAt(i);
      ends.push(at);
    }
    const table = new TermTable();
    texts.forEach((text, d) => {
      const out: TermIdList = { ids: new Int32Array(2), length: 0 };
      table.scanUnits(units, d === 0 ? 0 : ends[d - 1]!, ends[d]!, out);
      expect(Array.from(out.ids.subarray(0, out.length), (id) => table.terms[id]), JSON.stringify(text)).toEqual(expectedTerms(text));
    });
  });

  it('finds termsOf\'s terms in real multilingual titles and descriptions', () => {
    const lines = gunzipSync(readFileSync('tests/fixtures/pyvideo-multilingual.ndjson.gz')).toString('utf8').split('\n').filter(Boolean);
    const texts: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') texts.push(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    lines.forEach((line) => collect(JSON.parse(line)));
    expect(texts.length).toBeGreaterThan(100);
    const table = new TermTable();
    for (const text of texts) expect(scanned(table, text), text.slice(0, 60)).toEqual(expectedTerms(text));
  });
});
