// The core contract of /v1/videos (docs/api-contract.md §2, §4; docs/api-contract.md §2–4), defined once and run against each
// catalogue fixture: shapes, every sort and filter against the catalogue, q, paging, tampered
// cursors, and that no private or unlisted video ever shows up in a list.
import { describe, expect, it } from 'vitest';
import {
  byCodeUnits, DURATIONS, durationBucket, FEATURES, filtered, sortedIds,
  type ExpectedSort, type Truth, type TruthVideo, type VideoFilter,
} from './catalogue-truth.ts';
import { envelopeProblems, nullProblems, problemShapeProblems, videoProblems, type Problem, type Video } from './contract-shapes.ts';
import { decoded, header, mapConcurrent, type Client } from './http-client.ts';
import { LeakScanner } from './leak-scan.ts';
import { fetchPage, followChain, idsOf, nextLink, withParam, type FetchedPage } from './paging.ts';
import { useServedCatalogue } from './harness.ts';
import { type CatalogueSource, type Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;

/** Lower-cased words of 4+ letters in a text. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z]{4,}/g) ?? [];

/** Words search ignores (docs/decisions.md): of 4 letters or more. */
const STOPWORDS = new Set(['from', 'that', 'this', 'were', 'with']);

/** A word found in the titles of several public videos (but not most), for `q`. */
function pickWord(videos: readonly TruthVideo[], exclude: ReadonlySet<string> = STOPWORDS): string {
  const counts = new Map<string, number>();
  for (const v of videos) for (const w of new Set(wordsOf(v.title))) counts.set(w, (counts.get(w) ?? 0) + 1);
  const fitting = [...counts].filter(([w, n]) => !exclude.has(w) && !STOPWORDS.has(w) && n >= 3 && n <= videos.length / 3)
    .sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0]));
  const word = fitting[0]?.[0];
  if (word === undefined) throw new Error('catalogue has no title word fit for q');
  return word;
}

/** Lower-case terms of a text, split as search splits it. */
const termsOf = (text: string): string[] => text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Edit distance, with a swap of two neighbouring letters counting as one edit. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Whether a served video matches a search word as docs/decisions.md says: the word itself in any
 * field; in the title, tags or creator also a typo of it (1 edit from 4 letters, 2 from 8) or,
 * for the last word of the query, a completion of it.
 */
function matchesWord(v: Video, word: string, last: boolean): boolean {
  const short = termsOf([v.title, ...(v.tags ?? []), v.creator.displayName ?? '', v.creator.username ?? ''].join(' '));
  if (short.includes(word) || termsOf(v.description ?? '').includes(word)) return true;
  const typos = word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0;
  return short.some((t) => (last && t.startsWith(word)) || (typos > 0 && distance(t, word) <= typos));
}

export function defineListContract(label: string, source: CatalogueSource): void {
  let fx: Fixture;
  let api: Client;
  let truth: Truth;
  /** identity bytes of every 200 body fetched by this suite, scanned for leaks at the end */
  const seen = new LeakScanner();

  useServedCatalogue(source, (h) => ({ fx, api, truth } = h));

  const chain = async (target: string): Promise<FetchedPage<Video>[]> => {
    const pages = await followChain<Video>(api, target);
    for (const p of pages) seen.add(p.bytes, p.target);
    return pages;
  };
  const first = async (target: string): Promise<FetchedPage<Video>> => {
    const page = await fetchPage<Video>(api, target);
    seen.add(page.bytes, page.target);
    return page;
  };
  const expectedIds = (f: VideoFilter, sort: ExpectedSort) => sortedIds(filtered(truth, f), sort);

  describe(`${label}: list shapes`, () => {
    it('serves every public video exactly once along the default cursor chain, each with exactly the fields of docs/api-contract.md §2', async () => {
      const pages = await chain('/v1/videos?limit=50');
      const ids = idsOf(pages);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort(byCodeUnits)).toEqual(truth.publicVideos.map((v) => v.id).sort(byCodeUnits));
      const problems = pages.flatMap((p) => p.body.data.flatMap((v) => videoProblems(v, { base: fx.base, truth })));
      expect(problems).toEqual([]);
    });

    it('wraps list pages in {data, paging} with no null but the last page\'s nextCursor', async () => {
      const pages = await chain('/v1/videos?limit=50');
      pages.forEach((p, i) => {
        const last = i === pages.length - 1;
        expect(envelopeProblems(p.body, p.target)).toEqual([]);
        expect(nullProblems(p.body, (path) => last && path === '$.paging.nextCursor')).toEqual([]);
        expect(p.body.paging.nextCursor === null).toBe(last);
        expect(p.body.paging).toMatchObject({ limit: 50, offset: i * 50, total: truth.publicVideos.length });
      });
    });

    it('uses limit 20 and offset 0 when neither is given, and counts only public videos in paging.total', async () => {
      const { body } = await first('/v1/videos');
      expect(body.paging.limit).toBe(20);
      expect(body.paging.offset).toBe(0);
      expect(body.paging.total).toBe(truth.publicVideos.length);
      expect(body.data).toHaveLength(Math.min(20, truth.publicVideos.length));
      expect(body.data.every((v) => v.privacy === undefined || v.privacy === 'public')).toBe(true);
    });

    it('serves every public and unlisted video by id as {data: Video} with exactly the fields of docs/api-contract.md §2, matching the catalogue', async () => {
      const ids = [...truth.publicVideos.map((v) => v.id), ...truth.unlistedIds];
      const problems = await mapConcurrent(ids, 8, async (id) => {
        const res = await api.send(`/v1/videos/${enc(id)}`);
        if (res.status !== 200) return [`/v1/videos/${id} answered ${res.status}`];
        const body = JSON.parse(decoded(res).toString('utf8')) as unknown;
        const keys = typeof body === 'object' && body !== null ? Object.keys(body).join(',') : typeof body;
        return keys === 'data' ? videoProblems((body as { data: unknown }).data, { base: fx.base, truth }) : [`/v1/videos/${id} body has keys ${keys}`];
      });
      expect(problems.flat()).toEqual([]);
    });
  });

  describe(`${label}: sorts`, () => {
    const described: Record<ExpectedSort, string> = {
      latest: 'publishedAt, newest first',
      views: 'views, highest first',
      likes: 'likes, highest first',
    };
    for (const sort of ['latest', 'views', 'likes'] as const) {
      it(`orders sort=${sort} by ${described[sort]}, ties by id in code-unit order`, async () => {
        const pages = await chain(`/v1/videos?sort=${sort}&limit=50`);
        expect(idsOf(pages)).toEqual(expectedIds({}, sort));
      });
    }

    it('serves every public video exactly once under sort=trending', async () => {
      const ids = idsOf(await chain('/v1/videos?sort=trending&limit=50'));
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort(byCodeUnits)).toEqual(truth.publicVideos.map((v) => v.id).sort(byCodeUnits));
    });

    it('sorts by latest when no sort is given', async () => {
      const plain = await first('/v1/videos?limit=50');
      const latest = await first('/v1/videos?limit=50&sort=latest');
      expect(plain.bytes.equals(latest.bytes)).toBe(true);
    });
  });

  describe(`${label}: filters`, () => {
    it('category=X keeps exactly the public videos of that category, for every category', async () => {
      for (const category of truth.categories) {
        const ids = idsOf(await chain(`/v1/videos?category=${enc(category.id)}&limit=50`));
        expect(ids, `category=${category.id}`).toEqual(expectedIds({ category: category.id }, 'latest'));
      }
    });

    it('duration=short|medium|long keep videos under 240 s, 240–1200 s inclusive and over 1200 s', async () => {
      for (const duration of DURATIONS) {
        const pages = await chain(`/v1/videos?duration=${duration}&limit=50`);
        expect(idsOf(pages), `duration=${duration}`).toEqual(expectedIds({ duration }, 'latest'));
        for (const v of pages.flatMap((p) => p.body.data)) {
          expect(v.duration, `${v.id} under duration=${duration}`).toBeTypeOf('number');
          expect(durationBucket(v.duration ?? null)).toBe(duration);
        }
      }
    });

    it('feature=X keeps exactly the videos whose features.X is true, for each of the four features', async () => {
      for (const feature of FEATURES) {
        const pages = await chain(`/v1/videos?feature=${feature}&limit=50`);
        expect(idsOf(pages), `feature=${feature}`).toEqual(expectedIds({ feature }, 'latest'));
        expect(pages.flatMap((p) => p.body.data).every((v) => v.features?.[feature] === true)).toBe(true);
      }
    });

    it('creator=U keeps exactly the public videos of that channel, for every channel', async () => {
      for (const username of truth.channels.keys()) {
        const ids = idsOf(await chain(`/v1/videos?creator=${enc(username)}&limit=50`));
        expect(ids, `creator=${username}`).toEqual(expectedIds({ creator: username }, 'latest'));
      }
    });

    it('combines category, duration, feature and creator with AND, under any sort', async () => {
      const cases: { filter: VideoFilter; sort: ExpectedSort }[] = [];
      for (const category of truth.categories) for (const duration of DURATIONS) cases.push({ filter: { category: category.id, duration }, sort: 'views' });
      for (const feature of FEATURES) for (const duration of DURATIONS) cases.push({ filter: { feature, duration }, sort: 'likes' });
      for (const creator of truth.channels.keys()) for (const feature of FEATURES) cases.push({ filter: { creator, feature }, sort: 'latest' });
      // the richest four-way combination, followed to its end
      const v = truth.publicVideos.find((x) => x.category !== null && x.duration !== null && FEATURES.some((f) => x.features[f]));
      if (v) {
        const feature = FEATURES.find((f) => v.features[f]);
        const duration = durationBucket(v.duration);
        if (feature && duration && v.category) cases.push({ filter: { category: v.category, creator: v.channel, duration, feature }, sort: 'views' });
      }
      const failures = (await mapConcurrent(cases, 6, async ({ filter, sort }) => {
        const query = Object.entries(filter).map(([k, val]) => `${k}=${enc(String(val))}`).join('&');
        const pages = await chain(`/v1/videos?${query}&sort=${sort}&limit=50`);
        const expected = expectedIds(filter, sort);
        const ids = idsOf(pages);
        return JSON.stringify(ids) === JSON.stringify(expected) && pages[0]?.body.paging.total === expected.length
          ? [] : [`${query}&sort=${sort}: got ${ids.length} (total ${pages[0]?.body.paging.total}), expected ${expected.length}`];
      })).flat();
      expect(failures).toEqual([]);
      expect(cases.length).toBeGreaterThan(20);
    });

    for (const param of ['category', 'creator'] as const) {
      it(`answers an unknown ${param} with 200 and an empty last page`, async () => {
        const known = new Set(param === 'category' ? truth.categories.map((c) => c.id) : truth.channels.keys());
        let unknown = `no-such-${param}`;
        while (known.has(unknown)) unknown += '-x';
        const page = await first(`/v1/videos?${param}=${enc(unknown)}`);
        expect(page.body.data).toEqual([]);
        expect(page.body.paging).toEqual({ limit: 20, offset: 0, total: 0, nextCursor: null });
        expect(header(page.res, 'link')).toBeUndefined();
      });
    }
  });

  describe(`${label}: q`, () => {
    it('q=word returns only videos matching the word (itself, a typo or a completion of it), including every public video with it in its title', async () => {
      const word = pickWord(truth.publicVideos);
      const served = (await chain(`/v1/videos?q=${enc(word)}&limit=50`)).flatMap((p) => p.body.data);
      const without = served.filter((v) => !matchesWord(v, word, true)).map((v) => v.id);
      expect(without, `results of q=${word} that do not match it`).toEqual([]);
      const ids = new Set(served.map((v) => v.id));
      expect(ids.size).toBe(served.length);
      const titled = truth.publicVideos.filter((v) => wordsOf(v.title).includes(word)).map((v) => v.id);
      expect(titled.filter((id) => !ids.has(id)), `public videos titled with "${word}" missing from q`).toEqual([]);
      expect(served.every((v) => truth.videos.get(v.id)?.privacy === 'public')).toBe(true);
    });

    it('q with two words keeps only videos matching both words', async () => {
      const word = pickWord(truth.publicVideos);
      const withWord = truth.publicVideos.filter((v) => wordsOf(v.title).includes(word));
      // the commonest other title word among the videos with the first one
      const counts = new Map<string, number>();
      for (const v of withWord) for (const w of new Set(wordsOf(v.title))) if (w !== word && !STOPWORDS.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
      const second = [...counts].sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0]))[0]?.[0] ?? pickWord(truth.publicVideos, new Set([word]));
      const served = (await chain(`/v1/videos?q=${enc(`${word} ${second}`)}&limit=50`)).flatMap((p) => p.body.data);
      expect(served.filter((v) => !matchesWord(v, word, false) || !matchesWord(v, second, true)).map((v) => v.id)).toEqual([]);
      const both = truth.publicVideos.filter((v) => wordsOf(v.title).includes(word) && wordsOf(v.title).includes(second)).map((v) => v.id);
      const ids = new Set(served.map((v) => v.id));
      expect(both.filter((id) => !ids.has(id))).toEqual([]);
    });

    it('q matches regardless of letter case', async () => {
      const word = pickWord(truth.publicVideos);
      const lower = idsOf(await chain(`/v1/videos?q=${enc(word)}&limit=50`)).sort(byCodeUnits);
      const upper = idsOf(await chain(`/v1/videos?q=${enc(word.toUpperCase())}&limit=50`)).sort(byCodeUnits);
      expect(upper).toEqual(lower);
      expect(lower.length).toBeGreaterThan(0);
    });

    it('q with sort=views orders the same matches by views, highest first, ties by id', async () => {
      const word = pickWord(truth.publicVideos);
      const relevance = idsOf(await chain(`/v1/videos?q=${enc(word)}&limit=50`));
      const byViews = idsOf(await chain(`/v1/videos?q=${enc(word)}&sort=views&limit=50`));
      expect([...byViews].sort(byCodeUnits)).toEqual([...relevance].sort(byCodeUnits));
      const matched = relevance.map((id) => truth.videos.get(id)).filter((v): v is TruthVideo => v !== undefined);
      expect(byViews).toEqual(sortedIds(matched, 'views'));
    });

    it('q combines with filters (AND)', async () => {
      const word = pickWord(truth.publicVideos);
      const all = idsOf(await chain(`/v1/videos?q=${enc(word)}&limit=50`));
      const duration = DURATIONS.find((d) => all.some((id) => durationBucket(truth.videos.get(id)?.duration ?? null) === d)) ?? 'short';
      const narrowed = idsOf(await chain(`/v1/videos?q=${enc(word)}&duration=${duration}&sort=latest&limit=50`));
      const expected = all.filter((id) => durationBucket(truth.videos.get(id)?.duration ?? null) === duration)
        .map((id) => truth.videos.get(id)).filter((v): v is TruthVideo => v !== undefined);
      expect(narrowed).toEqual(sortedIds(expected, 'latest'));
    });

    it('answers q without any match with 200 and an empty page', async () => {
      const page = await first('/v1/videos?q=qzxjvkwqzzxj');
      expect(page.body.data).toEqual([]);
      expect(page.body.paging.total).toBe(0);
      expect(page.body.paging.nextCursor).toBeNull();
    });
  });

  describe(`${label}: paging`, () => {
    const chainCases = (): { target: string; limit: number; expected?: string[] }[] => {
      const mid = [...truth.categories]
        .map((c) => ({ id: c.id, n: filtered(truth, { category: c.id }).length }))
        .sort((a, b) => Math.abs(a.n - 30) - Math.abs(b.n - 30) || byCodeUnits(a.id, b.id))[0];
      const word = pickWord(truth.publicVideos);
      return [
        { target: '/v1/videos?limit=7', limit: 7, expected: expectedIds({}, 'latest') },
        { target: '/v1/videos?sort=views&limit=50', limit: 50, expected: expectedIds({}, 'views') },
        { target: '/v1/videos?sort=trending&limit=7', limit: 7 },
        { target: `/v1/videos?category=${enc(mid?.id ?? '')}&sort=likes&limit=1`, limit: 1, expected: expectedIds({ category: mid?.id ?? '' }, 'likes') },
        { target: '/v1/videos?duration=medium&sort=likes&limit=7', limit: 7, expected: expectedIds({ duration: 'medium' }, 'likes') },
        { target: `/v1/videos?q=${enc(word)}&limit=7`, limit: 7 },
      ];
    };

    it('follows nextCursor from the first page to exactly paging.total distinct items, for several queries and limits 1, 7 and 50', async () => {
      for (const { target, limit, expected } of chainCases()) {
        const pages = await chain(target);
        const total = pages[0]?.body.paging.total ?? -1;
        const ids = idsOf(pages);
        expect(new Set(ids).size, target).toBe(ids.length);
        expect(ids.length, target).toBe(total);
        if (expected) expect(ids, target).toEqual(expected);
        pages.forEach((p, i) => {
          expect(p.body.paging, `${target} page ${i}`).toMatchObject({ limit, offset: i * limit, total });
          expect(p.body.data.length, `${target} page ${i}`).toBe(Math.min(limit, total - i * limit));
          expect(p.body.paging.nextCursor === null, `${target} page ${i}`).toBe(i === pages.length - 1);
        });
      }
    });

    it('sends Link rel="next" exactly when nextCursor is non-null, and its URL gives the next page', async () => {
      const cases = chainCases();
      for (const { target } of [cases[1]!, cases[3]!, cases[5]!]) {
        const pages = await chain(target);
        for (let i = 0; i < pages.length; i++) {
          const page = pages[i]!;
          const link = nextLink(page.res, fx.base);
          if (page.body.paging.nextCursor === null) {
            expect(link, `${page.target}: Link on the last page`).toBeUndefined();
            continue;
          }
          expect(link, `${page.target}: no Link rel="next"`).toBeDefined();
          expect(header(page.res, 'link')?.startsWith(`<${fx.base}/`), 'the Link target is absolute, under the base URL (docs/api-contract.md §1)').toBe(true);
          const url = new URL(link ?? '');
          expect(url.origin).toBe(new URL(fx.base).origin);
          const linked = await api.send(url.pathname + url.search);
          expect(linked.status).toBe(200);
          expect(decoded(linked).equals(pages[i + 1]!.bytes), `${link} differs from the next cursor page`).toBe(true);
        }
      }
    });

    it('offset paging gives the same pages as cursor paging', async () => {
      for (const target of ['/v1/videos?limit=7', '/v1/videos?sort=likes&limit=50', '/v1/videos?feature=captions&sort=views&limit=7']) {
        const pages = await chain(target);
        const limit = pages[0]!.body.paging.limit;
        const byOffset = await mapConcurrent(pages, 6, (_, i) => first(withParam(target, 'offset', String(i * limit))));
        byOffset.forEach((p, i) => {
          expect(p.body.data.map((v) => v.id), p.target).toEqual(pages[i]!.body.data.map((v) => v.id));
          expect(p.body.paging, p.target).toEqual(pages[i]!.body.paging);
        });
      }
    });

    it('answers an offset at or past the end with 200, empty data and a null nextCursor', async () => {
      const total = truth.publicVideos.length;
      for (const offset of [total, total + 1, total + 1000]) {
        const page = await first(`/v1/videos?offset=${offset}`);
        expect(page.body.data).toEqual([]);
        expect(page.body.paging).toEqual({ limit: 20, offset, total, nextCursor: null });
        expect(header(page.res, 'link')).toBeUndefined();
      }
    });

    it('answers 400 naming cursor or offset when both are given', async () => {
      const { body } = await first('/v1/videos?limit=5');
      const res = await api.send(`/v1/videos?limit=5&offset=5&cursor=${enc(body.paging.nextCursor ?? '')}`);
      expect(res.status).toBe(400);
      const problem = JSON.parse(res.body.toString('utf8')) as Problem;
      expect(problemShapeProblems(problem, fx.base, 400)).toEqual([]);
      expect(problem.errors?.some((e) => e.parameter === 'cursor' || e.parameter === 'offset')).toBe(true);
    });

    it('answers 400 naming cursor, never 5xx, for tampered and foreign cursors', async () => {
      const page = (await first('/v1/videos?limit=5')).body;
      const cursor = page.paging.nextCursor ?? '';
      expect(cursor).not.toBe('');
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const bytes = Buffer.from(cursor, 'base64url');
      const flipped = Buffer.from(bytes);
      flipped[Math.floor(flipped.length / 2)] = (flipped[Math.floor(flipped.length / 2)] ?? 0) ^ 1;
      const tampered: [string, string][] = [
        ['0', '0'], ['-1', '-1'], ['empty', ''],
        ['padded with =', `${cursor}=`], ['padded with ==', `${cursor}==`],
        ['re-encoded as standard base64 with padding', bytes.toString('base64')],
        ['re-encoded as hex', bytes.toString('hex')],
        ['with one byte flipped and re-encoded', flipped.toString('base64url')],
        ['truncated', cursor.slice(0, -1)], ['doubled', cursor + cursor], ['lower-cased', cursor.toLowerCase()],
        ['with a trailing space', `${cursor} `],
      ];
      for (let i = 0; i < cursor.length; i++) {
        const c = cursor[i]!;
        const other = alphabet[(alphabet.indexOf(c) + 1 + i) % alphabet.length]!;
        tampered.push([`changed at ${i}`, cursor.slice(0, i) + (other === c ? 'A' : other) + cursor.slice(i + 1)]);
      }
      const failures: string[] = [];
      for (const [name, value] of tampered) {
        if (value === cursor) continue;
        const res = await api.send(`/v1/videos?limit=5&cursor=${enc(value)}`);
        if (res.status !== 400) { failures.push(`${name} (${value}) → ${res.status}`); continue; }
        const problem = JSON.parse(res.body.toString('utf8')) as Problem;
        const shape = problemShapeProblems(problem, fx.base, 400);
        if (shape.length > 0 || !problem.errors?.some((e) => e.parameter === 'cursor')) failures.push(`${name} → problem ${JSON.stringify(problem)}`);
      }
      expect(failures).toEqual([]);
    });

    it('answers 400 naming cursor for a cursor issued for another query, sort or endpoint', async () => {
      const cursorOf = async (target: string) => (await first(target)).body.paging.nextCursor ?? '';
      const [c1, c2] = truth.categories
        .map((c) => c.id)
        .filter((id) => filtered(truth, { category: id }).length > 5);
      const firstPublic = expectedIds({}, 'latest')[0] ?? '';
      const relatedCursor = (await fetchPage<Video>(api, `/v1/videos/${enc(firstPublic)}/related?limit=1`)).body.paging.nextCursor;
      const word = pickWord(truth.publicVideos);
      const cases: [string, string][] = [
        [await cursorOf('/v1/videos?sort=views&limit=5'), '/v1/videos?sort=likes&limit=5'],
        [await cursorOf('/v1/videos?sort=views&limit=5'), '/v1/videos?limit=5'],
        [await cursorOf(`/v1/videos?q=${enc(word)}&limit=1`), '/v1/videos?limit=1'],
        [await cursorOf('/v1/videos?duration=medium&limit=1'), '/v1/videos?duration=long&limit=1'],
      ];
      if (c1 !== undefined && c2 !== undefined) cases.push([await cursorOf(`/v1/videos?category=${enc(c1)}&limit=5`), `/v1/videos?category=${enc(c2)}&limit=5`]);
      if (relatedCursor) cases.push([relatedCursor, '/v1/videos?limit=1']);
      const failures: string[] = [];
      const usable = cases.filter(([cursor]) => cursor !== '');
      expect(usable.length).toBeGreaterThanOrEqual(4);
      for (const [cursor, target] of usable) {
        const res = await api.send(withParam(target, 'cursor', cursor));
        const problem = res.status === 400 ? JSON.parse(res.body.toString('utf8')) as Problem : undefined;
        if (!problem?.errors?.some((e) => e.parameter === 'cursor')) failures.push(`${target} with a foreign cursor → ${res.status}`);
      }
      expect(failures).toEqual([]);
    });
  });

  describe(`${label}: privacy of lists`, () => {
    it('counts only public videos: paging.total of each single filter matches the catalogue', async () => {
      const targets: [string, VideoFilter][] = [
        ...truth.categories.map((c) => [`/v1/videos?category=${enc(c.id)}`, { category: c.id }] as [string, VideoFilter]),
        ...FEATURES.map((f) => [`/v1/videos?feature=${f}`, { feature: f }] as [string, VideoFilter]),
        ...DURATIONS.map((d) => [`/v1/videos?duration=${d}`, { duration: d }] as [string, VideoFilter]),
      ];
      for (const [target, filter] of targets) {
        expect((await first(target)).body.paging.total, target).toBe(filtered(truth, filter).length);
      }
    });

    it('shows no private or unlisted video id in any list body fetched above', () => {
      expect(truth.privateIds.length + truth.unlistedIds.length).toBeGreaterThan(0);
      const leaked = seen.find([...truth.privateIds, ...truth.unlistedIds]);
      expect(leaked.map((id) => `${id}: ${seen.locate(id)}`)).toEqual([]);
    });
  });
}

