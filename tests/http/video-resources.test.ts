// Single-resource and secondary endpoints over the seeded catalogue: /v1/videos/{id}, /batch,
// /playback, /related, /comments paging, /v1/categories and /v1/health (docs/api-contract.md §10, docs/api-contract.md §2).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { byCodeUnits, sortedIds, type Truth } from './catalogue-truth.ts';
import {
  envelopeProblems, isAbsoluteUrl, isRecord, nullProblems, problemShapeProblems, videoProblems,
  type Batch, type Category, type Playback, type Problem, type Thread, type Video,
} from './contract-shapes.ts';
import { decoded, mapConcurrent, type Client } from './http-client.ts';
import { fetchPage, followChain, idsOf, nextLink, type FetchedPage } from './paging.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;
let fx: Fixture;
let api: Client;
let truth: Truth;

useServedCatalogue({ seed: { videos: 400 } }, (h) => ({ fx, api, truth } = h));

const batch = async (ids: readonly string[]) => (await api.json<Batch>(`/v1/videos/batch?ids=${ids.map(enc).join(',')}`)).body;
const problemOf = async (target: string, status: number) => {
  const res = await api.send(target);
  expect(res.status, target).toBe(status);
  const problem = JSON.parse(res.body.toString('utf8')) as Problem;
  expect(problemShapeProblems(problem, fx.base, status), target).toEqual([]);
  return problem;
};
const latestIds = () => sortedIds(truth.publicVideos, 'latest');

/** Link rel="next" exactly when nextCursor is non-null, pointing at the next page (docs/api-contract.md §4). */
async function linkProblems<T>(pages: readonly FetchedPage<T>[]): Promise<string[]> {
  const out: string[] = [];
  for (const [i, page] of pages.entries()) {
    const link = nextLink(page.res, fx.base);
    if (page.body.paging.nextCursor === null) {
      if (link !== undefined) out.push(`${page.target}: Link on the last page`);
      continue;
    }
    if (link === undefined) { out.push(`${page.target}: no Link rel="next"`); continue; }
    const url = new URL(link);
    const res = await api.send(url.pathname + url.search);
    if (!decoded(res).equals(pages[i + 1]?.bytes ?? Buffer.alloc(0))) out.push(`${page.target}: Link ${link} is not the next page`);
  }
  return out;
}

describe('GET /v1/videos/{id}', () => {
  it('answers {data: Video} with only the data member', async () => {
    const id = latestIds()[0] ?? '';
    const { body } = await api.json<Record<string, unknown>>(`/v1/videos/${enc(id)}`);
    expect(Object.keys(body)).toEqual(['data']);
    expect(videoProblems(body['data'], { base: fx.base, truth })).toEqual([]);
  });

  it('writes durationText as M:SS under an hour and H:MM:SS from an hour, for catalogues holding both', async () => {
    const withDuration = [...truth.videos.values()].filter((v) => v.privacy !== 'private' && v.duration !== null);
    const samples = [
      withDuration.filter((v) => (v.duration ?? 0) < 60)[0],
      withDuration.filter((v) => (v.duration ?? 0) >= 60 && (v.duration ?? 0) < 3600)[0],
      withDuration.filter((v) => (v.duration ?? 0) >= 3600)[0],
    ].filter((v) => v !== undefined);
    expect(samples.length).toBeGreaterThanOrEqual(2);
    for (const v of samples) {
      const { body } = await api.json<{ data: Video }>(`/v1/videos/${enc(v.id)}`);
      const d = v.duration ?? 0;
      const pattern = d < 3600 ? /^(0|[1-9]\d?):[0-5]\d$/ : /^[1-9]\d*:[0-5]\d:[0-5]\d$/;
      expect(body.data.durationText, `${d} s`).toMatch(pattern);
      const parts = (body.data.durationText ?? '').split(':').map(Number);
      expect(parts.reduce((total, part) => total * 60 + part, 0)).toBe(d);
    }
  });

  it('leaves duration and durationText out for a video whose catalogue record has no duration', async () => {
    const v = truth.publicVideos.find((x) => x.duration === null);
    expect(v, 'the seeded catalogue has videos without duration').toBeDefined();
    const { body } = await api.json<{ data: Record<string, unknown> }>(`/v1/videos/${enc(v?.id ?? '')}`);
    expect(body.data).not.toHaveProperty('duration');
    expect(body.data).not.toHaveProperty('durationText');
  });
});

describe('GET /v1/videos/batch', () => {
  it('answers {data, missing}: found videos in the order asked, unknown and private ids in missing', async () => {
    const pub = latestIds().slice(0, 5).reverse();
    const priv = truth.privateIds[0] ?? '';
    const unlisted = truth.unlistedIds[0] ?? '';
    const asked = [pub[0]!, 'no-such-video', pub[1]!, priv, unlisted, pub[2]!, pub[3]!, pub[4]!];
    const { body } = await api.json<Record<string, unknown>>(`/v1/videos/batch?ids=${asked.map(enc).join(',')}`);
    expect(Object.keys(body).sort()).toEqual(['data', 'missing']);
    const b = body as unknown as Batch;
    expect(b.data.map((v) => v.id)).toEqual([pub[0], pub[1], unlisted, pub[2], pub[3], pub[4]]);
    expect(b.missing).toEqual(['no-such-video', priv]);
    expect(b.data.flatMap((v) => videoProblems(v, { base: fx.base, truth }))).toEqual([]);
  });

  it('serves each video in a batch exactly as /v1/videos/{id} does', async () => {
    const ids = [...latestIds().slice(0, 10), ...truth.unlistedIds.slice(0, 3)];
    const b = await batch(ids);
    for (const v of b.data) {
      const single = await api.json<{ data: Video }>(`/v1/videos/${enc(v.id)}`);
      expect(v).toEqual(single.body.data);
    }
    expect(b.data).toHaveLength(ids.length);
  });

  it('removes duplicate and blank ids before looking them up', async () => {
    const [a, b] = latestIds();
    const res = await batch([a!, '', a!, b!, '', '', b!, a!, '']);
    expect(res.data.map((v) => v.id)).toEqual([a, b]);
    expect(res.missing).toEqual([]);
  });

  it('accepts 50 distinct ids and returns all 50 in order', async () => {
    const ids = [...latestIds().slice(0, 50)].sort(byCodeUnits).reverse();
    const res = await batch(ids);
    expect(res.data.map((v) => v.id)).toEqual(ids);
    expect(res.missing).toEqual([]);
  });

  it('accepts 51 ids that are 50 distinct ones once duplicates are removed', async () => {
    const ids = latestIds().slice(0, 50);
    const res = await batch([...ids, ids[0]!]);
    expect(res.data.map((v) => v.id)).toEqual(ids);
  });

  it('answers 400 naming ids for 51 distinct ids', async () => {
    const ids = [...latestIds().slice(0, 50), 'one-more-id'];
    const problem = await problemOf(`/v1/videos/batch?ids=${ids.map(enc).join(',')}`, 400);
    expect(problem.errors?.map((e) => e.parameter)).toContain('ids');
  });

  for (const [name, target] of [
    ['missing', '/v1/videos/batch'],
    ['empty', '/v1/videos/batch?ids='],
    ['only commas', '/v1/videos/batch?ids=,,,'],
  ] as const) {
    it(`answers 400 naming ids when ids is ${name}`, async () => {
      const problem = await problemOf(target, 400);
      expect(problem.errors?.map((e) => e.parameter)).toContain('ids');
    });
  }
});

describe('GET /v1/videos/{id}/playback', () => {
  const PLAYBACK_KEYS = ['videoId', 'modes', 'qualities', 'defaultQuality', 'sources', 'captions', '3d', 'calmAudio', 'restrictedMode'];
  const MODES = ['inline', 'theater', 'fullscreen', 'pip'];

  /** a media URL as answers carry it: a path on the deployment under the base, others as given */
  const served = (url: string) => (url.startsWith('/') ? fx.base + url : url);

  it('answers {data: playback} for every public and unlisted video, agreeing with its media, captions and features', async () => {
    const ids = [...truth.publicVideos.map((v) => v.id), ...truth.unlistedIds];
    const failures = (await mapConcurrent(ids, 8, async (id) => {
      const t = truth.videos.get(id)!;
      const { body } = await api.json<Record<string, unknown>>(`/v1/videos/${enc(id)}/playback`);
      const out: string[] = [];
      if (Object.keys(body).join(',') !== 'data') out.push(`${id}: body keys ${Object.keys(body).join(',')}`);
      const p = body['data'] as Playback;
      if (!isRecord(p)) return [...out, `${id}: data is not an object`];
      for (const k of Object.keys(p)) if (!PLAYBACK_KEYS.includes(k)) out.push(`${id}: unexpected playback field ${k}`);
      for (const k of PLAYBACK_KEYS) if (k !== 'defaultQuality' && !(k in p)) out.push(`${id}: playback lacks ${k}`);
      if (p.videoId !== id) out.push(`${id}: videoId ${p.videoId}`);
      if (!Array.isArray(p.modes) || p.modes.length === 0 || p.modes.some((m) => !MODES.includes(m)) || new Set(p.modes).size !== p.modes.length) {
        out.push(`${id}: modes ${JSON.stringify(p.modes)}`);
      }
      const heights = [...new Set(t.sources.map((s) => s.height))].sort((a, b) => b - a);
      if (JSON.stringify(p.qualities) !== JSON.stringify(heights.map((h) => ({ label: `${h}p`, height: h })))) {
        out.push(`${id}: qualities ${JSON.stringify(p.qualities)} are not the media heights ${heights.join(',')}, best first`);
      }
      if (heights.length === 0 ? 'defaultQuality' in p : !p.qualities.some((q) => q.label === p.defaultQuality)) {
        out.push(`${id}: defaultQuality ${JSON.stringify(p.defaultQuality)} with qualities ${JSON.stringify(p.qualities)}`);
      }
      const urls = (p.sources ?? []).map((s) => s.url).sort(byCodeUnits);
      if (JSON.stringify(urls) !== JSON.stringify(t.sources.map((s) => served(s.url)).sort(byCodeUnits))) out.push(`${id}: sources are not the catalogue's media`);
      for (const s of p.sources ?? []) {
        const media = t.sources.find((m) => served(m.url) === s.url);
        if (!isAbsoluteUrl(s.url) || s.type !== media?.type) out.push(`${id}: source ${JSON.stringify(s)}`);
        if (s.quality !== undefined && !p.qualities.some((q) => q.label === s.quality)) out.push(`${id}: source quality ${s.quality} is not among qualities`);
      }
      const caps = (c: readonly { lang: string; label: string; url?: string | null }[]) => c.map((x) => `${x.lang}:${x.label}:${x.url ?? ''}`).sort(byCodeUnits).join('|');
      if (!Array.isArray(p.captions) || caps(p.captions) !== caps(t.captions.map((c) => ({ ...c, url: c.url === null ? null : served(c.url) })))) out.push(`${id}: captions ${JSON.stringify(p.captions)}`);
      if (p['3d']?.available !== t.features['3d']) out.push(`${id}: 3d.available ${String(p['3d']?.available)}`);
      if (p.calmAudio?.available !== t.features.calm) out.push(`${id}: calmAudio.available`);
      if (p.restrictedMode?.available !== t.features.restricted) out.push(`${id}: restrictedMode.available`);
      out.push(...nullProblems(p, () => false, id));
      return out;
    })).flat();
    expect(failures).toEqual([]);
    expect(ids.some((id) => truth.videos.get(id)!.sources.length === 0)).toBe(true);
    expect(ids.some((id) => truth.videos.get(id)!.sources.length > 1)).toBe(true);
  });
});

describe('GET /v1/videos/{id}/related', () => {
  it('pages related videos in the list envelope with full Video items, following cursors to paging.total', async () => {
    const id = latestIds()[0] ?? '';
    const pages = await followChain<Video>(api, `/v1/videos/${enc(id)}/related?limit=7`);
    const ids = idsOf(pages);
    expect(ids.length).toBe(pages[0]?.body.paging.total);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(7);
    for (const p of pages) {
      expect(envelopeProblems(p.body, p.target)).toEqual([]);
      expect(p.body.data.flatMap((v) => videoProblems(v, { base: fx.base, truth }))).toEqual([]);
    }
    expect(await linkProblems(pages)).toEqual([]);
    const all = await fetchPage<Video>(api, `/v1/videos/${enc(id)}/related?limit=50`);
    expect(all.body.data.map((v) => v.id)).toEqual(ids.slice(0, 50));
  });

  it('answers an offset past the end of related with 200 and an empty page', async () => {
    const id = latestIds()[0] ?? '';
    const page = await fetchPage<Video>(api, `/v1/videos/${enc(id)}/related?offset=100000`);
    expect(page.body.data).toEqual([]);
    expect(page.body.paging.nextCursor).toBeNull();
  });
});

describe('GET /v1/videos/{id}/comments', () => {
  it('pages threads one by one with limit=1 to exactly paging.total, newest first', async () => {
    const [id] = [...truth.threads.entries()].sort((a, b) => b[1].length - a[1].length || byCodeUnits(a[0], b[0]))[0] ?? [''];
    const pages = await followChain<Thread>(api, `/v1/videos/${enc(id)}/comments?limit=1`);
    const threads = pages.flatMap((p) => p.body.data);
    expect(threads.length).toBe(truth.threads.get(id)?.length);
    expect(pages[0]?.body.paging.total).toBe(threads.length);
    const times = threads.map((t) => Date.parse(t.publishedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    pages.forEach((p, i) => expect(p.body.paging).toMatchObject({ limit: 1, offset: i }));
    expect(await linkProblems(pages)).toEqual([]);
  });

  it('answers a video without published comments with 200, an empty page and total 0', async () => {
    const v = truth.publicVideos.find((x) => !truth.threads.has(x.id));
    const page = await fetchPage<Thread>(api, `/v1/videos/${enc(v?.id ?? '')}/comments`);
    expect(page.body).toEqual({ data: [], paging: { limit: 20, offset: 0, total: 0, nextCursor: null } });
  });

  it('gives replyCount as the number of replies served and null only as a thread\'s parentId', async () => {
    const withReplies = [...truth.replies.keys()].map((parent) => truth.comments.find((c) => c.id === parent)?.videoId).find((id) => id !== undefined) ?? '';
    const { body } = await api.json<{ data: Thread[] }>(`/v1/videos/${enc(withReplies)}/comments?limit=50`);
    expect(body.data.some((t) => t.replies.length > 0)).toBe(true);
    for (const t of body.data) expect(t.replyCount).toBe(t.replies.length);
    expect(nullProblems(body, (path) => /^\$\.data\[\d+\]\.parentId$/.test(path) || path === '$.paging.nextCursor')).toEqual([]);
  });
});

describe('GET /v1/categories', () => {
  it('answers {data: Category[]} ordered by name, each with id, name and its count of public videos', async () => {
    const { body, res } = await api.json<Record<string, unknown>>('/v1/categories');
    expect(Object.keys(body)).toEqual(['data']);
    const data = body['data'] as Category[];
    for (const c of data) expect(Object.keys(c).sort()).toEqual(['id', 'name', 'videoCount']);
    const names = data.map((c) => c.name);
    expect(names).toEqual([...names].sort(byCodeUnits));
    const expected = truth.categories.map((c) => ({ id: c.id, name: c.name, videoCount: truth.publicVideos.filter((v) => v.category === c.id).length }));
    expect([...data].sort((a, b) => byCodeUnits(a.id, b.id))).toEqual(expected.sort((a, b) => byCodeUnits(a.id, b.id)));
    expect(decoded(res).length).toBeGreaterThan(0);
  });
});

describe('GET /v1/health', () => {
  it('answers 200 {data: {status: "ok", version, snapshot}} with the API version', async () => {
    const { body } = await api.json<{ data: Record<string, unknown> }>('/v1/health');
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data['status']).toBe('ok');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(body.data['version']).toBe(pkg.version);
    expect(body.data['snapshot']).toBeTruthy();
    expect(nullProblems(body, () => false)).toEqual([]);
  });
});
