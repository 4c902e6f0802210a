// Search over real multilingual titles (PyVideo: Japanese, Chinese, Korean, Thai, Portuguese,
// Spanish, Russian, French, German; tests/fixtures/pyvideo-multilingual.ndjson.gz): words inside
// unspaced runs are found, the same typo and prefix rules apply where they make sense, and a
// prefix query counts every indexed word it starts, exactly, with every match reachable.
import { describe, expect, it } from 'vitest';
import { importCatalogue } from '../../../src/catalogue/import-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { buildModel, deriveCatalogue, type Model } from '../../../src/model/build-model.ts';
import { KIND_SPECS, searchDocuments } from '../../../src/search/documents.ts';
import { KEPT_MATCHES, rankWords } from '../../../src/search/rank.ts';
import { searchKind } from '../../../src/search/run-search.ts';
import { buildSearchIndex, loadSearchIndex, serialiseSearchIndex } from '../../../src/search/search-index.ts';
import { termsOf } from '../../../src/search/text.ts';
import { prefixRun } from '../../../src/search/vocabulary.ts';

async function fixtureModel(file: string): Promise<Model> {
  const db = openCatalogue(':memory:');
  try {
    await importCatalogue(db, file);
    const catalogue = readCatalogue(db);
    return buildModel(catalogue, deriveCatalogue(catalogue), 'http://localhost:4321');
  } finally {
    db.close();
  }
}

const model = await fixtureModel('tests/fixtures/pyvideo-multilingual.ndjson.gz');
const index = buildSearchIndex(model);
/** The titles found, in NFC (one real title is in NFD, `c` + U+0327: it must be found all the same) */
const titlesOf = (q: string) => Array.from(searchKind(index, 'videos', q, Number.POSITIVE_INFINITY).ids, (id) => model.videos.get(index.videos.keys[id]!)!.video.title.normalize('NFC'));
const totalOf = (q: string) => searchKind(index, 'videos', q).total;

describe('words of scripts written without spaces', () => {
  it('finds a Japanese word inside a run, and the whole run', () => {
    const title = 'Python プロダクトを活用した開発チーム運営 by Takahiro Ikeuchi / 池内 孝啓';
    for (const q of ['運営', '開発チーム運営', 'チーム', 'プロダクト 運営', '開発チーム', 'python 運営']) expect(titlesOf(q), q).toContain(title);
    expect(titlesOf('運')).toContain(title); // a prefix, still being typed
  });

  it('finds Chinese and Korean words', () => {
    expect(titlesOf('台灣')).toContain('如何用 grs 擷取台灣上市股票股價資訊');
    expect(titlesOf('股票')).toContain('如何用 grs 擷取台灣上市股票股價資訊');
    expect(titlesOf('风险')).toEqual(expect.arrayContaining([expect.stringContaining('如何实现合同风险预测模型')]));
    expect(titlesOf('네트워크')).toEqual(expect.arrayContaining(['네트워크 엔지니어들을 위한 Python', 'NetworkX를 이용한 네트워크 링크 예측']));
    expect(titlesOf('네트')).toEqual(expect.arrayContaining(['네트워크 엔지니어들을 위한 Python']));
  });

  it('takes no typos in them: a different character is a different word', () => {
    expect(totalOf('プロダクト')).toBeGreaterThan(0);
    expect(totalOf('プロダクド')).toBe(0);
    expect(totalOf('네트워그')).toBe(0);
  });
});

describe('words of alphabetic scripts', () => {
  it('finds Portuguese, Spanish and Russian words with or without their accents, composed or not', () => {
    expect(model.videos.size).toBeGreaterThan(200);
    expect([...model.videos.values()].some((v) => v.video.title.startsWith('Introduc\u0327a\u0303o'))).toBe(true);
    expect(titlesOf('introdução')).toEqual(titlesOf('introducao'));
    expect(titlesOf('introduc\u0327a\u0303o')).toEqual(titlesOf('introducao'));
    expect(titlesOf('introducao')).toContain('Introdução sobre Apache Spark e computação distribuída');
    expect(titlesOf('programación')).toEqual(titlesOf('programacion'));
    expect(titlesOf('robotica')).toContain('Robótica con Python y Arduino');
    expect(titlesOf('сравнение')).toContain('Libusb vs linux kernel. Сравнение userspace & kernelspace API');
  });

  it('keeps the typo and prefix rules: one edit from 4 letters, two from 8, the last word a prefix', () => {
    expect(titlesOf('сравнеине')).toContain('Libusb vs linux kernel. Сравнение userspace & kernelspace API'); // two letters swapped
    expect(titlesOf('robotca')).toContain('Robótica con Python y Arduino');
    expect(titlesOf('python сравн')).toContain('Libusb vs linux kernel. Сравнение userspace & kernelspace API');
    expect(titlesOf('introduç')).toEqual(expect.arrayContaining(['Introdução sobre Apache Spark e computação distribuída', 'Introducción a Tryton Application Platform']));
  });
});

describe('prefix queries are exhaustive', () => {
  const { videos } = searchDocuments(model);
  const spec = KIND_SPECS.videos;
  // per document: every term of its fields, and those of its short fields (where completions match)
  const termsByDoc = videos.documents.map((doc) => ({
    all: new Set(spec.fields.flatMap((f) => termsOf(String(doc[f] ?? '')))),
    loose: [...new Set(spec.looseFields.flatMap((f) => termsOf(String(doc[f] ?? ''))))],
  }));
  /** documents where `prefix` (under 4 characters: no typos) is a word, or starts a word of a short field */
  const bruteForce = (prefix: string) =>
    termsByDoc.flatMap((t, d) => (t.all.has(prefix) || t.loose.some((term) => term.startsWith(prefix)) ? [d] : [])).sort((a, b) => a - b);
  const prefixes = [...new Set(termsByDoc.flatMap((t) => t.loose.flatMap((term) => [...term].slice(0, 3).map((_, i) => [...term].slice(0, i + 1).join('')))))]
    .filter((p) => p.length < 4).sort();

  it('counts every document with a word starting with the prefix, and ranks all of them', () => {
    expect(prefixes.length).toBeGreaterThan(500);
    const wrong: string[] = [];
    for (const prefix of prefixes) {
      const expected = bruteForce(prefix);
      const full = rankWords(index.videos, [prefix], Number.POSITIVE_INFINITY);
      const found = Array.from(full.ids).sort((a, b) => a - b);
      if (full.total !== expected.length || found.join() !== expected.join()) wrong.push(`${prefix}: ${full.total} found, ${expected.length} expected`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('finds a rare completion that a frequent one shares its prefix with (the testimonio case)', () => {
    // "pro": programação, programación, project… are frequent; a title with a rare pro- word
    // counts too (a short prefix once stood for its 8 commonest completions only)
    const completions = index.videos.terms.slice(...prefixRun(index.videos.terms, 'pro'));
    expect(completions.length).toBeGreaterThan(8);
    const rare = completions.find((term) => termsByDoc.filter((t) => t.loose.includes(term)).length === 1 && !term.startsWith('prog'))!;
    expect(rare).toBeDefined();
    const holder = termsByDoc.findIndex((t) => t.loose.includes(rare));
    const pro = searchKind(index, 'videos', 'pro', Number.POSITIVE_INFINITY);
    expect(Array.from(pro.ids)).toContain(holder);
    expect(pro.total).toBe(bruteForce('pro').length);
    // and the rare word does not outrank the commonest completion only for being rare
    const best = searchKind(index, 'videos', 'pro');
    expect(best.ids[0]).not.toBe(holder);
  });

  it('keeps the total exact in two-word queries ending with a prefix', () => {
    // words under 4 letters take no typos: the expected matches are exactly these
    const expected = termsByDoc.filter((t) => t.all.has('con') && (t.all.has('py') || t.loose.some((term) => term.startsWith('py')))).length;
    expect(expected).toBeGreaterThan(10);
    expect(totalOf('con py')).toBe(expected);
  });

  it('gives the same answers from top lists stored with the snapshot as ranked at query time', () => {
    const stored = loadSearchIndex(serialiseSearchIndex(buildSearchIndex(model, { topListPostings: 20 })));
    expect(stored.videos.tops.size).toBeGreaterThan(20);
    for (const [word, top] of stored.videos.tops) {
      const full = rankWords(index.videos, [word], Number.POSITIVE_INFINITY);
      expect(top.total, word).toBe(full.total);
      expect(Array.from(top.ids), word).toEqual(Array.from(full.ids.subarray(0, KEPT_MATCHES)));
    }
  });
});
