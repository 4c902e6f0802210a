// Privacy (docs/api-contract.md §2): private videos are never served by any endpoint, page, file or count;
// unlisted ones only by id; held, removed and spam comments, and replies to comments that are not
// served, never appear. Defined once and run against each catalogue fixture.
import { describe, expect, it } from 'vitest';
import { byCodeUnits, type Truth } from './catalogue-truth.ts';
import {
  commentProblems, envelopeProblems, problemShapeProblems, type Batch, type Category, type Thread, type Video,
} from './contract-shapes.ts';
import { decoded, header, mapConcurrent, type Client, type RawResponse } from './http-client.ts';
import { LeakScanner, scanTree } from './leak-scan.ts';
import { followChain, type FetchedPage } from './paging.ts';
import { useServedCatalogue } from './harness.ts';
import { type CatalogueSource, type Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface PrivacyOptions {
  /** check the related list of every n-th public video (1: all), to keep big catalogues fast */
  readonly relatedStride?: number;
}

export function definePrivacyContract(label: string, source: CatalogueSource, options: PrivacyOptions = {}): void {
  let fx: Fixture;
  let api: Client;
  let truth: Truth;
  const seen = new LeakScanner();

  useServedCatalogue(source, (h) => ({ fx, api, truth } = h));

  const record = (res: RawResponse) => { if (res.status === 200) seen.add(decoded(res), res.target); };
  const chain = async <T>(target: string): Promise<FetchedPage<T>[]> => {
    const pages = await followChain<T>(api, target);
    for (const p of pages) seen.add(p.bytes, p.target);
    return pages;
  };
  const publicIds = () => truth.publicVideos.map((v) => v.id);

  describe(`${label}: privacy`, () => {
    it('answers 404 problems for every private video id on /v1/videos/{id}, /playback, /related and /comments', async () => {
      expect(truth.privateIds.length).toBeGreaterThan(0);
      const targets = truth.privateIds.flatMap((id) => ['', '/playback', '/related', '/comments'].map((s) => `/v1/videos/${enc(id)}${s}`));
      const failures = (await mapConcurrent(targets, 8, async (target) => {
        const res = await api.send(target);
        if (res.status !== 404) return [`${target} → ${res.status}`];
        return problemShapeProblems(JSON.parse(res.body.toString('utf8')), fx.base, 404).map((p) => `${target}: ${p}`);
      })).flat();
      expect(failures).toEqual([]);
    });

    it('lists private ids of a batch in missing and serves none of them', async () => {
      const pub = publicIds()[0] ?? '';
      for (const group of chunks(truth.privateIds, 40)) {
        const ids = [pub, ...group];
        const { body, res } = await api.json<Batch>(`/v1/videos/batch?ids=${ids.map(enc).join(',')}`);
        seen.add(JSON.stringify(body.data), res.target);
        expect(body.data.map((v) => v.id)).toEqual([pub]);
        expect(body.missing).toEqual(group);
      }
    });

    it('serves unlisted videos by id, playback, related and comments with X-Robots-Tag: noindex, and public ones without it', async () => {
      expect(truth.unlistedIds.length).toBeGreaterThan(0);
      for (const id of truth.unlistedIds) {
        for (const target of [`/v1/videos/${enc(id)}`, `/v1/videos/${enc(id)}/playback`, `/v1/videos/${enc(id)}/related`, `/v1/videos/${enc(id)}/comments`]) {
          const res = await api.send(target);
          expect(res.status, target).toBe(200);
          expect(header(res, 'x-robots-tag') ?? '', target).toMatch(/\bnoindex\b/);
        }
        const { body } = await api.json<{ data: Video }>(`/v1/videos/${enc(id)}`);
        expect(body.data.privacy).toBe('unlisted');
      }
      for (const suffix of ['', '/playback', '/related', '/comments']) {
        const pub = await api.send(`/v1/videos/${enc(publicIds()[0] ?? '')}${suffix}`);
        expect(pub.status).toBe(200);
        expect(header(pub, 'x-robots-tag') ?? '', suffix).not.toMatch(/noindex/);
      }
    });

    const stride = options.relatedStride ?? 1;
    it(`serves as related only other public videos sharing its category, a tag or its creator, at most 100, for ${stride === 1 ? 'every public video' : `one public video in ${stride}`}`, async () => {
      const sample = publicIds().filter((_, i) => i % stride === 0);
      const failures = (await mapConcurrent(sample, 8, async (id) => {
        const pages = await chain<Video>(`/v1/videos/${enc(id)}/related?limit=50`);
        const ids = pages.flatMap((p) => p.body.data.map((v) => v.id));
        const out: string[] = [];
        for (const p of pages) out.push(...envelopeProblems(p.body, p.target));
        if (new Set(ids).size !== ids.length) out.push(`${id}: related has duplicates`);
        if (ids.length !== pages[0]?.body.paging.total) out.push(`${id}: related total ${pages[0]?.body.paging.total} but ${ids.length} served`);
        if (ids.length > 100) out.push(`${id}: ${ids.length} related videos`);
        if (ids.includes(id)) out.push(`${id}: related to itself`);
        for (const r of ids) if (truth.videos.get(r)?.privacy !== 'public') out.push(`${id}: related ${r} is ${truth.videos.get(r)?.privacy ?? 'unknown'}`);
        // docs/api-contract.md §2: related means same category, shared tags (compared without case) or same creator
        const v = truth.videos.get(id)!;
        const own = new Set(v.tags.map((t) => t.toLowerCase()));
        for (const r of ids) {
          const o = truth.videos.get(r);
          if (o && !((v.category !== null && o.category === v.category) || o.channel === v.channel || o.tags.some((t) => own.has(t.toLowerCase())))) {
            out.push(`${id}: related ${r} shares no category, tag or creator with it`);
          }
        }
        return out;
      })).flat();
      expect(failures).toEqual([]);
    });

    it('serves for every public video exactly its published threads, newest first, each with its published replies oldest first', async () => {
      const failures = (await mapConcurrent(publicIds(), 8, async (id) => {
        const pages = await chain<Thread>(`/v1/videos/${enc(id)}/comments?limit=50`);
        const threads = pages.flatMap((p) => p.body.data);
        const out: string[] = [];
        for (const p of pages) out.push(...envelopeProblems(p.body, p.target));
        const expected = truth.threads.get(id) ?? [];
        if (pages[0]?.body.paging.total !== expected.length) out.push(`${id}: paging.total ${pages[0]?.body.paging.total}, ${expected.length} published threads`);
        const got = threads.map((t) => t.id).sort(byCodeUnits).join(',');
        if (got !== expected.map((t) => t.id).sort(byCodeUnits).join(',')) out.push(`${id}: threads [${got}] are not the published ones`);
        threads.forEach((t, i) => {
          out.push(...commentProblems(t, fx.base, truth, id, null, `${id} thread ${t.id}`));
          const previous = threads[i - 1];
          if (previous && Date.parse(previous.publishedAt) < Date.parse(t.publishedAt)) out.push(`${id}: thread ${t.id} is newer than the one before it`);
          const replies = Array.isArray(t.replies) ? t.replies : [];
          if (t.replyCount !== replies.length) out.push(`${id}: thread ${t.id} replyCount ${t.replyCount} but ${replies.length} replies`);
          const expectedReplies = (truth.replies.get(t.id) ?? []).map((r) => r.id).sort(byCodeUnits).join(',');
          if (replies.map((r) => r.id).sort(byCodeUnits).join(',') !== expectedReplies) out.push(`${id}: replies of ${t.id} are not its published replies`);
          replies.forEach((r, j) => {
            out.push(...commentProblems(r, fx.base, truth, id, t.id, `${id} reply ${r.id}`));
            const before = replies[j - 1];
            if (before && Date.parse(before.publishedAt) > Date.parse(r.publishedAt)) out.push(`${id}: reply ${r.id} is older than the one before it`);
          });
        });
        return out;
      })).flat();
      expect(failures).toEqual([]);
    });

    it("counts in each video's comments the threads plus replies it serves", async () => {
      const expected = (id: string) => (truth.threads.get(id) ?? []).reduce((n, t) => n + 1 + (truth.replies.get(t.id)?.length ?? 0), 0);
      const failures: string[] = [];
      for (const group of chunks(publicIds(), 50)) {
        const { body, res } = await api.json<Batch>(`/v1/videos/batch?ids=${group.map(enc).join(',')}`);
        record(res);
        for (const v of body.data) if (v.comments !== expected(v.id)) failures.push(`${v.id}: comments ${v.comments}, expected ${expected(v.id)}`);
      }
      expect(failures).toEqual([]);
      expect(truth.threads.size).toBeGreaterThan(0);
    });

    it('counts in /v1/categories only the public videos of each category', async () => {
      const { body, res } = await api.json<{ data: Category[] }>('/v1/categories');
      record(res);
      const expected = truth.categories.map((c) => ({
        id: c.id, name: c.name, videoCount: truth.publicVideos.filter((v) => v.category === c.id).length,
      })).sort((a, b) => byCodeUnits(a.id, b.id));
      expect([...body.data].sort((a, b) => byCodeUnits(a.id, b.id))).toEqual(expected);
    });

    it('shows no private video id, nor any held, removed or spam comment or reply to one, in any body fetched above', () => {
      expect(truth.hiddenCommentIds.length).toBeGreaterThan(0);
      const leaked = seen.find([...truth.privateIds, ...truth.hiddenCommentIds]);
      expect(leaked.map((id) => `${id}: ${seen.locate(id)}`)).toEqual([]);
    });

    it('leaves no private video id nor hidden comment id in any snapshot file under distDir', () => {
      const files = new LeakScanner();
      expect(scanTree(fx.distDir, files)).toBeGreaterThan(0);
      const leaked = files.find([...truth.privateIds, ...truth.hiddenCommentIds]);
      expect(leaked.map((id) => `${id}: ${files.locate(id).slice(0, 300)}`)).toEqual([]);
    });
  });
}

