// Previews social sites and search engines render (docs/decisions.md, "Thumbnails at named
// sizes"): the additive `thumbnails` field on generated pictures, PNGs of exactly the sizes named,
// oEmbed's thumbnail chosen to fit maxwidth and maxheight, twitter:site from TWITTER_SITE.
import { describe, expect, it } from 'vitest';
import type { Truth } from './catalogue-truth.ts';
import { decoded, header, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';

// read by the pages at render time, as a deployment's environment would give it
process.env['TWITTER_SITE'] = '@videoplatform';

let fx: Fixture;
let api: Client;
let truth: Truth;
useServedCatalogue({ seed: { videos: 120 } }, (h) => ({ fx, api, truth } = h));

const enc = encodeURIComponent;
const SIZES = { default: [120, 90], medium: [320, 180], high: [480, 360], standard: [640, 480], maxres: [1280, 720] } as const;
type Thumbs = Record<keyof typeof SIZES, { url: string; width: number; height: number }>;
interface VideoBody { data: { id: string; thumbnailUrl: string; watchUrl: string; thumbnails?: Thumbs } }

const generated = () => truth.publicVideos.find((v) => v.thumbnailUrl === null)!;

describe('thumbnails at named sizes', () => {
  it('a video whose picture is generated lists every named size; each URL is a PNG of that size', async () => {
    const { body } = await api.json<VideoBody>(`/v1/videos/${enc(generated().id)}`);
    const thumbs = body.data.thumbnails!;
    expect(Object.keys(thumbs)).toEqual(Object.keys(SIZES));
    for (const [name, [width, height]] of Object.entries(SIZES)) {
      const t = thumbs[name as keyof typeof SIZES];
      expect([t.width, t.height], name).toEqual([width, height]);
      const res = await api.send(new URL(t.url).pathname);
      expect(res.status, name).toBe(200);
      expect(header(res, 'content-type')).toBe('image/png');
      const png = decoded(res);
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], name).toEqual([width, height]);
    }
    // the SVG stays where it was: the field is additive
    expect(body.data.thumbnailUrl).toBe(`${fx.base}/thumbnails/${enc(generated().id)}.svg`);
  });

  it('lists carry the same field', async () => {
    const { body } = await api.json<{ data: VideoBody['data'][] }>('/v1/videos?limit=50');
    for (const video of body.data) {
      const truthVideo = truth.videos.get(video.id)!;
      expect(video.thumbnails === undefined, video.id).toBe(truthVideo.thumbnailUrl !== null);
    }
  });

  it('sizes that are not named, unknown videos and private ones have no picture', async () => {
    const id = enc(generated().id);
    for (const target of [`/thumbnails/${id}.1281x720.png`, `/thumbnails/${id}.100x100.png`, '/thumbnails/no-such-video.1280x720.png', `/thumbnails/${enc(truth.privateIds[0]!)}.1280x720.png`]) {
      expect((await api.send(target)).status, target).toBe(404);
    }
  });
});

describe('oEmbed thumbnails fit maxwidth and maxheight', () => {
  for (const [query, expected] of [['', 'maxres'], ['&maxwidth=1920', 'maxres'], ['&maxwidth=1279', 'standard'], ['&maxwidth=640', 'standard'], ['&maxwidth=500', 'high'], ['&maxwidth=479', 'medium'], ['&maxwidth=200', 'default'], ['&maxwidth=1920&maxheight=400', 'high'], ['&maxheight=200', 'medium']] as const) {
    it(`${query || 'no bounds'}: ${expected}`, async () => {
      const video = generated();
      const { body: resource } = await api.json<VideoBody>(`/v1/videos/${enc(video.id)}`);
      const { body } = await api.json<{ thumbnail_url: string; thumbnail_width: number; thumbnail_height: number }>(`/oembed?url=${enc(resource.data.watchUrl)}${query}`);
      const t = resource.data.thumbnails![expected];
      expect([body.thumbnail_url, body.thumbnail_width, body.thumbnail_height]).toEqual([t.url, t.width, t.height]);
    });
  }
});

describe('twitter:site', () => {
  it('every page with social tags names the configured account', async () => {
    const playlist = [...truth.playlists.values()].find((p) => p.privacy === 'public')!;
    for (const target of ['/', `/watch/${enc(truth.publicVideos[0]!.id)}`, `/playlists/${enc(playlist.id)}`, `/channels/${enc([...truth.channels.keys()][0]!)}`]) {
      const html = decoded(await api.send(target)).toString();
      expect(html, target).toContain('<meta name="twitter:site" content="@videoplatform">');
    }
  });
});
