// oEmbed over the synthetic demo catalogue, and a title full of markup that must come out escaped.
import { describe, expect, it } from 'vitest';
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';
import type { Truth } from './catalogue-truth.ts';
import type { Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { defineOEmbedContract, iframeAttributes, type OEmbedBody } from './oembed-contract.ts';
import type { Fixture } from './server-fixture.ts';

defineOEmbedContract('seeded catalogue', { seed: { videos: 300 } });

describe('/oembed escapes what it inserts into html', () => {
  let fx: Fixture;
  let api: Client;
  let truth: Truth;
  useServedCatalogue({ seed: { videos: 40 } }, (h) => ({ fx, api, truth } = h));

  it('keeps a title with quotes, ampersands and tags inside the iframe\'s title attribute', async () => {
    const video = truth.publicVideos[0]!;
    const title = `Tom & Jerry's "best" <b>bits</b>"></iframe><script>alert(1)</script>&amp;`;
    const db = openCatalogue(fx.catalogue);
    try {
      db.prepare('UPDATE videos SET title = ? WHERE id = ?').run(title, video.id);
    } finally {
      db.close();
    }
    await fx.rebuild();
    const { body } = await api.json<OEmbedBody>(`/oembed?id=${encodeURIComponent(video.id)}`);
    expect(body.title).toBe(title);
    expect(body.html).not.toContain('<script');
    expect(iframeAttributes(body.html)).toMatchObject({ title, src: `${fx.base}/embed/${encodeURIComponent(video.id)}` });
  });
});
