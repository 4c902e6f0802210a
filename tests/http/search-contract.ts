// Search (docs/api-contract.md §10 /v1/search, docs/api-contract.md §2), defined once and run against each catalogue fixture:
// a title word with a typo or cut short still finds its video, results are `{type, score, item}`
// best first, type selects the kinds, paging holds, and nothing private or unlisted is ever found.
import { describe, expect, it } from 'vitest';
import type { Truth, TruthVideo } from './catalogue-truth.ts';
import { problemShapeProblems, videoProblems, type Video } from './contract-shapes.ts';
import { mapConcurrent, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { followChain } from './paging.ts';
import { type CatalogueSource, type Fixture } from './server-fixture.ts';

interface Result { type: 'video' | 'channel' | 'playlist'; score: number; item: Record<string, unknown> }

const enc = encodeURIComponent;
const words = (text: string) => text.toLowerCase().match(/[a-z]{6,}/g) ?? [];

/** One letter of a word changed (not the first), so it is a typo of it. */
const typo = (word: string) => word.slice(0, 3) + (word[3] === 'x' ? 'q' : 'x') + word.slice(4);

export function defineSearchContract(label: string, source: CatalogueSource): void {
  let fx: Fixture;
  let api: Client;
  let truth: Truth;
  useServedCatalogue(source, (h) => ({ fx, api, truth } = h));

  const resultsOf = async (query: string) => (await followChain<Result>(api, `/v1/search?${query}&limit=50`)).flatMap((p) => p.body.data);
  /** Public videos with a distinctive long title word, and that word. */
  const sample = (): [TruthVideo, string][] => truth.publicVideos.filter((_, i) => i % 17 === 0).slice(0, 25).flatMap((v) => {
    const word = words(v.title)[0];
    return word ? [[v, word] as [TruthVideo, string]] : [];
  });

  describe(`${label}: /v1/search`, () => {
    it('finds each sampled video by a word of its title, by that word with a typo, and by its first letters', async () => {
      const failures = (await mapConcurrent(sample(), 4, async ([video, word]) => {
        const out: string[] = [];
        for (const q of [word, typo(word), word.slice(0, 4)]) {
          const found = (await resultsOf(`q=${enc(q)}`)).map((r) => r.item['id']);
          if (!found.includes(video.id)) out.push(`${video.id} "${video.title}" not found by "${q}"`);
        }
        return out;
      })).flat();
      expect(failures).toEqual([]);
    });

    it('answers {type, score, item} best first, videos with exactly the Video fields', async () => {
      const [, word] = sample()[0]!;
      const results = await resultsOf(`q=${enc(word.slice(0, 3))}`);
      expect(results.length).toBeGreaterThan(0);
      for (const [i, r] of results.entries()) {
        expect(Object.keys(r).sort()).toEqual(['item', 'score', 'type']);
        expect(r.type).toBe('video');
        if (i > 0) expect(results[i - 1]!.score).toBeGreaterThanOrEqual(r.score);
      }
      expect(results.flatMap((r, i) => videoProblems(r.item as unknown as Video, { base: fx.base, truth }, `results[${i}]`))).toEqual([]);
    });

    it('searches channels and playlists with type, and all kinds together with type=all', async () => {
      const channel = [...truth.channels.values()][0]!;
      const name = words(channel.displayName)[0] ?? channel.username;
      const channels = await resultsOf(`q=${enc(name)}&type=channels`);
      expect(channels.every((r) => r.type === 'channel')).toBe(true);
      expect(channels.map((r) => r.item['username'])).toContain(channel.username);
      const publicPlaylist = [...truth.playlists.values()].find((p) => p.privacy === 'public' && words(p.title).length > 0);
      if (publicPlaylist) {
        const playlists = await resultsOf(`q=${enc(words(publicPlaylist.title)[0]!)}&type=playlists`);
        expect(playlists.map((r) => r.item['id'])).toContain(publicPlaylist.id);
      }
      const all = await resultsOf(`q=${enc(name)}&type=all`);
      const kinds = new Set(all.map((r) => r.type));
      expect(kinds.has('channel')).toBe(true);
      for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
    });

    it('never finds a private or unlisted video, nor a playlist that is not public', async () => {
      const hidden = [...truth.videos.values()].filter((v) => v.privacy !== 'public');
      const hiddenIds = new Set(hidden.map((v) => v.id));
      const hiddenPlaylists = new Set([...truth.playlists.values()].filter((p) => p.privacy !== 'public').map((p) => p.id));
      const leaks = (await mapConcurrent(hidden.slice(0, 30), 4, async (v) => {
        const q = words(v.title).slice(0, 2).join(' ') || v.title;
        const found = await resultsOf(`q=${enc(q)}&type=all`);
        return found.filter((r) => (r.type === 'video' && hiddenIds.has(String(r.item['id']))) || (r.type === 'playlist' && hiddenPlaylists.has(String(r.item['id']))))
          .map((r) => `"${q}" found ${r.type} ${String(r.item['id'])}`);
      })).flat();
      expect(leaks).toEqual([]);
    });

    it('matches /v1/videos?q to the same videos, in the same order without a sort', async () => {
      const [, word] = sample()[1] ?? sample()[0]!;
      const searched = (await resultsOf(`q=${enc(word)}`)).map((r) => r.item['id']);
      const listed = (await followChain<Video>(api, `/v1/videos?q=${enc(word)}&limit=50`)).flatMap((p) => p.body.data.map((v) => v.id));
      expect(listed).toEqual(searched);
      const byViews = (await followChain<Video>(api, `/v1/videos?q=${enc(word)}&sort=views&limit=50`)).flatMap((p) => p.body.data);
      expect(byViews.map((v) => v.id).sort()).toEqual([...searched].sort());
      for (let i = 1; i < byViews.length; i++) expect(byViews[i - 1]!.views! >= byViews[i]!.views!).toBe(true);
    });

    it('answers 400 problems naming q when it is missing or blank, and type when unknown', async () => {
      for (const [target, parameter] of [['/v1/search', 'q'], ['/v1/search?q=%20', 'q'], ['/v1/search?q=x&type=people', 'type']] as const) {
        const res = await api.send(target);
        expect(res.status, target).toBe(400);
        const body = JSON.parse(res.body.toString('utf8'));
        expect(problemShapeProblems(body, fx.base, 400), target).toEqual([]);
        expect(body.errors.map((e: { parameter: string }) => e.parameter), target).toContain(parameter);
      }
    });
  });
}
