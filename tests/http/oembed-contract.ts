// oEmbed (docs/api-contract.md §2 /oembed), defined once and run against each catalogue fixture: a video named
// by its watch URL, embed URL or id gives the same answer; conflicts and absence are 400s; foreign
// hosts, other paths, private and unknown videos are 404s; maxwidth and maxheight keep 16:9 inside
// both; format=xml is a 501; and the iframe in `html` names the embed URL with every value escaped.
import { describe, expect, it } from 'vitest';
import { unfurl } from 'unfurl.js';
import type { Truth, TruthVideo } from './catalogue-truth.ts';
import { problemShapeProblems, type Problem } from './contract-shapes.ts';
import { decoded, header, mapConcurrent, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { CatalogueSource, Fixture } from './server-fixture.ts';

export interface OEmbedBody {
  version: string; type: string; title: string; author_name: string; author_url: string;
  provider_name: string; provider_url: string; thumbnail_url: string; thumbnail_width: number;
  thumbnail_height: number; html: string; width: number; height: number; cache_age: number;
}

const FIELDS = ['version', 'type', 'title', 'author_name', 'author_url', 'provider_name', 'provider_url',
  'thumbnail_url', 'thumbnail_width', 'thumbnail_height', 'html', 'width', 'height', 'cache_age'].sort();

const enc = encodeURIComponent;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/**
 * The attributes of the one `<iframe>` an oEmbed `html` must be, decoded, or a message saying why
 * it is not one: any raw `<`, `>` or `"` inside a value would break this shape.
 */
export function iframeAttributes(html: string): Record<string, string> | string {
  const match = /^<iframe((?: [a-z-]+="[^"<>]*")*)><\/iframe>$/.exec(html);
  if (!match) return `html is not a single iframe with double-quoted, escaped attributes: ${html}`;
  const attributes: Record<string, string> = {};
  for (const [, name, value] of match[1]!.matchAll(/ ([a-z-]+)="([^"]*)"/g)) {
    if (/&(?!(?:amp|lt|gt|quot|#39);)/.test(value!)) return `attribute ${name} has a bare &: ${value}`;
    attributes[name!] = value!.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e]!);
  }
  return attributes;
}

export function defineOEmbedContract(label: string, source: CatalogueSource): void {
  let fx: Fixture;
  let api: Client;
  let truth: Truth;
  useServedCatalogue(source, (h) => ({ fx, api, truth } = h));

  const oembed = async (query: string) => (await api.json<OEmbedBody>(`/oembed?${query}`)).body;
  async function problemOf(query: string, status: number): Promise<Problem> {
    const res = await api.send(`/oembed?${query}`);
    expect(res.status, `/oembed?${query}`).toBe(status);
    expect(header(res, 'content-type')).toMatch(/^application\/problem\+json(;|$)/);
    const problem = JSON.parse(decoded(res).toString('utf8')) as Problem;
    expect(problemShapeProblems(problem, fx.base, status)).toEqual([]);
    return problem;
  }
  const parametersOf = (p: Problem) => (p.errors ?? []).map((e) => e.parameter).sort();
  const watchUrl = (id: string) => `${fx.base}/watch/${enc(id)}`;
  const embedUrl = (id: string) => `${fx.base}/embed/${enc(id)}`;
  /** public and unlisted videos, a spread of each */
  const sample = (): TruthVideo[] => [
    ...truth.publicVideos.filter((_, i) => i % 23 === 0).slice(0, 12),
    ...truth.unlistedIds.slice(0, 3).map((id) => truth.videos.get(id)!),
  ];

  describe(`${label}: /oembed`, () => {
    it('answers the same oEmbed 1.0 video for a watch URL, an embed URL, an id, and both', async () => {
      const failures = (await mapConcurrent(sample(), 4, async (video) => {
        const out: string[] = [];
        const byWatch = await oembed(`url=${enc(watchUrl(video.id))}`);
        for (const query of [`url=${enc(embedUrl(video.id))}`, `id=${enc(video.id)}`, `url=${enc(watchUrl(video.id))}&id=${enc(video.id)}`]) {
          if (JSON.stringify(await oembed(query)) !== JSON.stringify(byWatch)) out.push(`${video.id}: ${query} differs from the watch URL's answer`);
        }
        const channel = truth.channels.get(video.channel)!;
        const { body: resource } = await api.json<{ data: { thumbnailUrl: string; embedUrl: string; thumbnails?: { maxres: { url: string } } } }>(`/v1/videos/${enc(video.id)}`);
        const expected = {
          version: '1.0', type: 'video', title: video.title, author_name: channel.displayName,
          author_url: `${fx.base}/channels/${enc(channel.username)}`, provider_url: `${fx.base}/`,
          // without maxwidth or maxheight: the largest picture (a generated one's PNG, or the catalogue's own)
          thumbnail_url: resource.data.thumbnails?.maxres.url ?? resource.data.thumbnailUrl, width: 640, height: 360,
        };
        for (const [key, value] of Object.entries(expected)) {
          if ((byWatch as unknown as Record<string, unknown>)[key] !== value) out.push(`${video.id}: ${key} is ${JSON.stringify((byWatch as unknown as Record<string, unknown>)[key])}, expected ${JSON.stringify(value)}`);
        }
        if (Object.keys(byWatch).sort().join() !== FIELDS.join()) out.push(`${video.id}: fields ${Object.keys(byWatch).sort().join()}`);
        if (!(byWatch.provider_name.length > 0 && byWatch.thumbnail_width > 0 && byWatch.thumbnail_height > 0 && byWatch.cache_age > 0)) out.push(`${video.id}: empty provider, thumbnail size or cache_age`);
        const iframe = iframeAttributes(byWatch.html);
        if (typeof iframe === 'string') out.push(`${video.id}: ${iframe}`);
        else {
          if (iframe['src'] !== resource.data.embedUrl) out.push(`${video.id}: iframe src ${iframe['src']} is not the embedUrl ${resource.data.embedUrl}`);
          if (iframe['title'] !== video.title) out.push(`${video.id}: iframe title ${iframe['title']} is not the video's title`);
          if (iframe['width'] !== '640' || iframe['height'] !== '360') out.push(`${video.id}: iframe is ${iframe['width']}×${iframe['height']}`);
        }
        return out;
      })).flat();
      expect(failures).toEqual([]);
    });

    it('embeds the answer\'s iframe player URL, which answers 200 with HTML', async () => {
      const video = sample()[0]!;
      const iframe = iframeAttributes((await oembed(`id=${enc(video.id)}`)).html) as Record<string, string>;
      const res = await api.send(new URL(iframe['src']!).pathname);
      expect(res.status).toBe(200);
      expect(header(res, 'content-type')).toMatch(/^text\/html/);
    });

    it('keeps the iframe 16:9 and as large as fits inside maxwidth and maxheight', async () => {
      const video = sample()[0]!;
      const cases: [number | undefined, number | undefined][] = [
        [200, undefined], [1920, undefined], [1000, undefined], [333, undefined], [1920, 300], [640, 113], [800, 10000], [undefined, 200], [1279, 719],
      ];
      for (const [maxwidth, maxheight] of cases) {
        const query = [`id=${enc(video.id)}`, maxwidth && `maxwidth=${maxwidth}`, maxheight && `maxheight=${maxheight}`].filter(Boolean).join('&');
        const { width, height, html } = await oembed(query);
        const widthBound = maxwidth ?? 640;
        expect(width, query).toBeLessThanOrEqual(widthBound);
        if (maxheight !== undefined) expect(height, query).toBeLessThanOrEqual(maxheight);
        expect(Math.abs(height - (width * 9) / 16), `${query}: ${width}×${height} is not 16:9`).toBeLessThanOrEqual(0.5);
        // one pixel wider would no longer fit
        const wider = width + 1;
        expect(wider > widthBound || (maxheight !== undefined && Math.round((wider * 9) / 16) > maxheight), `${query}: ${width} is not the largest width`).toBe(true);
        const iframe = iframeAttributes(html) as Record<string, string>;
        expect([iframe['width'], iframe['height']], query).toEqual([String(width), String(height)]);
      }
    });

    it('refuses maxwidth outside 200–1920, a bad maxheight, and an unknown format with a 400 naming each', async () => {
      const id = `id=${enc(sample()[0]!.id)}`;
      for (const value of ['199', '1921', '0', 'abc', '640.5', '']) {
        expect(parametersOf(await problemOf(`${id}&maxwidth=${enc(value)}`, 400)), value).toEqual(['maxwidth']);
      }
      for (const value of ['112', 'tall', '-5']) {
        expect(parametersOf(await problemOf(`${id}&maxheight=${enc(value)}`, 400)), value).toEqual(['maxheight']);
      }
      expect(parametersOf(await problemOf(`${id}&format=yaml`, 400))).toEqual(['format']);
      expect(parametersOf(await problemOf(`${id}&maxwidth=9&maxheight=9&format=html`, 400))).toEqual(['format', 'maxheight', 'maxwidth']);
    });

    it('answers format=json as JSON and format=xml with a 501 problem', async () => {
      const id = `id=${enc(sample()[0]!.id)}`;
      expect(await oembed(`${id}&format=json`)).toEqual(await oembed(id));
      const problem = await problemOf(`${id}&format=xml`, 501);
      expect(problem.type).toBe(`${fx.base}/problems/not-implemented`);
      expect(problem.detail).toMatch(/xml/);
    });

    it('needs url or id: neither is a 400 naming url; both naming different videos a 400 naming id', async () => {
      expect(parametersOf(await problemOf('', 400))).toEqual(['url']);
      expect(parametersOf(await problemOf('maxwidth=400', 400))).toEqual(['url']);
      const [a, b] = sample();
      const conflict = await problemOf(`url=${enc(watchUrl(a!.id))}&id=${enc(b!.id)}`, 400);
      expect(parametersOf(conflict)).toEqual(['id']);
      expect(conflict.detail).toContain(a!.id);
      expect(parametersOf(await problemOf('url=not%20a%20url', 400))).toEqual(['url']);
      expect(parametersOf(await problemOf(`url=${enc(watchUrl(a!.id))}&url=${enc(watchUrl(a!.id))}`, 400))).toEqual(['url']);
    });

    it('answers 404 for another host, another path of ours, and private or unknown videos', async () => {
      const video = sample()[0]!;
      const foreign = [
        `https://videos.example.org/watch/${enc(video.id)}`,
        watchUrl(video.id).replace('127.0.0.1', 'localhost'),
        `${fx.base.replace(/:\d+$/, '')}:1/watch/${enc(video.id)}`,
        `${fx.base}/channels/${enc(video.channel)}`,
        `${fx.base}/watch/${enc(video.id)}/extra`,
        `${fx.base}/v1/videos/${enc(video.id)}`,
      ];
      for (const url of foreign) expect((await problemOf(`url=${enc(url)}`, 404)).type, url).toBe(`${fx.base}/problems/not-found`);
      for (const id of [...truth.privateIds.slice(0, 5), 'no-such-video-anywhere']) {
        await problemOf(`id=${enc(id)}`, 404);
        await problemOf(`url=${enc(watchUrl(id))}`, 404);
        await problemOf(`url=${enc(embedUrl(id))}`, 404);
      }
    });

    it('is found by an oEmbed consumer from npm (unfurl.js) through the watch page\'s discovery link', async () => {
      const video = sample()[0]!;
      const result = await unfurl(watchUrl(video.id), { oembed: true });
      const found = result.oEmbed as unknown as OEmbedBody | undefined;
      expect(found, 'unfurl.js found no oEmbed for the watch page').toBeDefined();
      expect(found!.type).toBe('video');
      expect(found!.title).toBe(video.title);
      expect(iframeAttributes(found!.html)).toMatchObject({ src: embedUrl(video.id) });
    });
  });
}
