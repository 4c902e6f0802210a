// Static-first serving (docs/api-contract.md §8): a query in canonical form is answered from the snapshot; the
// same query in any other equivalent form is answered dynamically with byte-identical bytes, and so
// the same strong ETag. Cursor pages and the equivalent offset pages agree too (docs/api-contract.md §4).
import { describe, expect, it } from 'vitest';
import { type Truth } from './catalogue-truth.ts';
import type { Video } from './contract-shapes.ts';
import { decoded, header, type Client } from './http-client.ts';
import { followChain } from './paging.ts';
import { useServedCatalogue } from './harness.ts';

const enc = encodeURIComponent;
let api: Client;
let truth: Truth;

useServedCatalogue({ seed: { videos: 400 } }, (h) => ({ api, truth } = h));

/** Fetches every target (identity) and expects one body and one ETag among them. */
async function expectIdentical(targets: readonly string[]): Promise<void> {
  const responses = await Promise.all(targets.map((t) => api.send(t)));
  const reference = responses[0]!;
  expect(reference.status, targets[0]).toBe(200);
  for (const res of responses.slice(1)) {
    expect(res.status, res.target).toBe(200);
    expect(res.body.equals(reference.body), `${res.target} differs from ${reference.target}`).toBe(true);
    expect(header(res, 'etag'), `${res.target} ETag`).toBe(header(reference, 'etag'));
  }
  for (const encoding of ['br', 'gzip']) {
    const encoded = await Promise.all(targets.map((t) => api.send(t, { headers: { 'accept-encoding': encoding } })));
    for (const res of encoded) expect(decoded(res).equals(reference.body), `${res.target} (${encoding})`).toBe(true);
  }
}

describe('canonical and equivalent forms', () => {
  it('answers the first page of the default list identically in every equivalent form', async () => {
    await expectIdentical([
      '/v1/videos?limit=20&sort=latest', '/v1/videos', '/v1/videos?sort=latest&limit=20', '/v1/videos?sort=latest',
      '/v1/videos?limit=20', '/v1/videos?offset=0', '/v1/videos?utm_source=mail', '/v1/videos?limit=20&offset=0&sort=latest&x=y',
      '/v1/videos?sort=%6Catest&limit=%32%30',
    ]);
  });

  it('answers the second page by cursor and by offset=20 identically', async () => {
    const cursor = enc((await api.json<{ paging: { nextCursor: string } }>('/v1/videos')).body.paging.nextCursor);
    await expectIdentical([
      `/v1/videos?cursor=${cursor}&limit=20&sort=latest`, `/v1/videos?cursor=${cursor}`, `/v1/videos?sort=latest&cursor=${cursor}&limit=20`,
      '/v1/videos?limit=20&offset=20', '/v1/videos?offset=20', '/v1/videos?offset=20&sort=latest&foo=1',
    ]);
  });

  it('answers deep pages of every sort by cursor and by offset identically, prerendered or not', async () => {
    for (const sort of ['latest', 'views', 'likes', 'trending']) {
      const pages = await followChain<Video>(api, `/v1/videos?limit=20&sort=${sort}`);
      expect(pages.length).toBeGreaterThan(12);
      for (const index of [1, 9, 10, 11, pages.length - 1]) {
        const cursor = pages[index - 1]!.body.paging.nextCursor ?? '';
        await expectIdentical([`/v1/videos?cursor=${enc(cursor)}&limit=20&sort=${sort}`, `/v1/videos?sort=${sort}&offset=${index * 20}`]);
      }
    }
  });

  it('answers filtered first pages identically in canonical and reordered forms', async () => {
    const category = truth.categories[0]?.id ?? '';
    await expectIdentical([`/v1/videos?category=${enc(category)}&limit=20&sort=views`, `/v1/videos?sort=views&category=${enc(category)}`, `/v1/videos?limit=20&category=${enc(category)}&sort=views&offset=0&x=1`]);
    await expectIdentical(['/v1/videos?duration=short&limit=20&sort=latest', '/v1/videos?duration=short', '/v1/videos?sort=latest&duration=short&zzz=']);
    await expectIdentical(['/v1/videos?feature=captions&limit=20&sort=trending', '/v1/videos?sort=trending&feature=captions&limit=20&offset=0']);
  });

  it('answers a video, its playback, its comments and the categories identically with unknown parameters added', async () => {
    const id = enc([...truth.threads.keys()].find((v) => truth.videos.get(v)?.privacy === 'public') ?? '');
    await expectIdentical([`/v1/videos/${id}`, `/v1/videos/${id}?ref=home`]);
    await expectIdentical([`/v1/videos/${id}/playback`, `/v1/videos/${id}/playback?ref=home`]);
    await expectIdentical([`/v1/videos/${id}/comments?limit=20`, `/v1/videos/${id}/comments`, `/v1/videos/${id}/comments?offset=0`, `/v1/videos/${id}/comments?limit=20&ref=1`]);
    await expectIdentical(['/v1/categories', '/v1/categories?ref=home']);
    // RFC 3986 §6.2.2.2: a percent-encoded unreserved character is the same URI
    const raw = decodeURIComponent(id);
    const spelled = `%${raw.charCodeAt(0).toString(16).toUpperCase()}${enc(raw.slice(1))}`;
    await expectIdentical([`/v1/videos/${id}`, `/v1/videos/${spelled}`]);
  });

  it('answers a channel\'s and a playlist\'s prerendered lists identically in equivalent forms, by cursor and by offset', async () => {
    const channel = [...truth.channels.keys()].find((u) => truth.publicVideos.filter((v) => v.channel === u).length > 25)!;
    const videos = `/v1/channels/${enc(channel)}/videos`;
    await expectIdentical([`${videos}?limit=20`, videos, `${videos}?offset=0&ref=x`]);
    const cursor = enc((await api.json<{ paging: { nextCursor: string } }>(videos)).body.paging.nextCursor);
    await expectIdentical([`${videos}?cursor=${cursor}&limit=20`, `${videos}?offset=20`, `${videos}?limit=20&offset=20&x=1`]);
    await expectIdentical([`/v1/channels/${enc(channel)}/playlists?limit=20`, `/v1/channels/${enc(channel)}/playlists?ref=1`]);
    const playlist = [...truth.playlists.values()].find((p) => p.privacy !== 'private')!.id;
    await expectIdentical([`/v1/playlists/${enc(playlist)}`, `/v1/playlists/${enc(playlist)}?ref=1`]);
    await expectIdentical([`/v1/playlists/${enc(playlist)}/videos?limit=20`, `/v1/playlists/${enc(playlist)}/videos`, `/v1/playlists/${enc(playlist)}/videos?offset=0`]);
  });

  it('reads + in the query as a space, like %20', async () => {
    const words = truth.publicVideos.map((v) => v.title.toLowerCase().match(/[a-z]{4,}/g) ?? []).find((w) => w.length >= 2) ?? ['a', 'b'];
    await expectIdentical([`/v1/videos?q=${words[0]}%20${words[1]}`, `/v1/videos?q=${words[0]}+${words[1]}`]);
  });

  it('sends the same Link header for a page whichever form asked for it', async () => {
    const a = await api.send('/v1/videos');
    const b = await api.send('/v1/videos?offset=0&ref=x&limit=20');
    expect(header(a, 'link')).toBeDefined();
    expect(header(b, 'link')).toBe(header(a, 'link'));
  });
});
