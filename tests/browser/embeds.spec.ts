// Embeds in real Chromium, from a third-party page on another origin: the SDK loaded from /sdk.js
// embeds a video and drives it over postMessage (play, pause, seek, quality, volume, events), its
// client lists videos; the oEmbed html pasted into a page renders a player that plays; the
// player's controls work from the keyboard; a player URL answered with an error page (a bad option,
// an unknown live channel) rejects the SDK's ready() at once with the page's words; and forged
// messages are not taken for the player's.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type Site } from './site.ts';
import type { ThirdParty } from './third-party.ts';

const enc = encodeURIComponent;

interface SeenEvent { name: string; time: number; quality: string | null; mode: string; paused: boolean; error?: string }
declare global {
  /** what the blog pages below put on their window */
  interface Window {
    VideoPlatform: typeof import('../../src/sdk/index.ts');
    player: import('../../src/sdk/embed.ts').Player;
    events: SeenEvent[];
  }
}

/** A public video with both sample renditions and caption files. */
const playable = (site: Site) => site.truth.publicVideos.find((v) => v.sources.length > 1 && v.captions.length > 0)!;

/** A blog page on the third party's origin that loads /sdk.js and embeds `videoId`, recording every event. */
function blogWithSdk(blog: ThirdParty, site: Site, path: string, options: Record<string, unknown>): string {
  return blog.page(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog</title>
<script src="${site.base}/sdk.js"></script></head>
<body><main><h1>A blog post</h1><div id="player"></div></main>
<script>
  window.events = [];
  window.player = VideoPlatform.embed('#player', ${JSON.stringify({ width: 640, height: 360, ...options })});
  for (const name of VideoPlatform.PLAYER_EVENTS) {
    player.on(name, (state, error) => events.push({ name, time: state.currentTime, quality: state.quality, mode: state.mode, paused: state.paused, error: error && error.code }));
  }
</script></body></html>`);
}

const eventNames = (page: Page) => page.evaluate(() => window.events.map((e) => e.name));

/** Collects console errors and failed requests of a page. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => { if (!r.url().includes('/hang')) problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`); });
  return problems;
}

test.describe('the SDK on a third-party page', () => {
  test('embeds a video that plays, pauses, seeks, changes quality and volume, and reports its events', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    const problems = watchProblems(page);
    await page.goto(blogWithSdk(thirdParty, site, '/sdk-embed.html', { videoId: video.id, muted: true }));
    expect(new URL(page.url()).origin).not.toBe(new URL(site.base).origin);

    const ready = await page.evaluate(() => window.player.ready());
    expect(ready).toMatchObject({ videoId: video.id, paused: true, muted: true, qualities: ['480p', '240p'], quality: '480p' });
    expect(await page.locator('#player iframe').getAttribute('src')).toBe(`${site.base}/embed/${enc(video.id)}?muted=1&origin=${enc(thirdParty.origin)}`);

    const playing = await page.evaluate(() => window.player.play());
    expect(playing.paused).toBe(false);
    await expect.poll(() => page.evaluate(() => window.events.filter((e) => e.name === 'timeupdate' && e.time > 0.5).length), { timeout: 10_000 }).toBeGreaterThan(0);
    const paused = await page.evaluate(() => window.player.pause());
    expect(paused.paused).toBe(true);

    await page.evaluate(() => window.player.seek(5));
    expect(await page.evaluate(() => window.player.getCurrentTime())).toBeCloseTo(5, 0);
    await expect.poll(() => eventNames(page)).toContain('seeked');

    const changed = await page.evaluate(() => window.player.setQuality('240p'));
    expect(changed.quality).toBe('240p');
    await expect.poll(() => page.evaluate(() => window.events.find((e) => e.name === 'qualitychange')?.quality)).toBe('240p');
    // the new rendition continues from where the old one was
    await expect.poll(() => page.evaluate(() => window.player.getCurrentTime()), { timeout: 10_000 }).toBeGreaterThan(4.5);

    expect((await page.evaluate(() => window.player.setVolume(0.5))).volume).toBe(0.5);
    expect(await page.evaluate(() => window.player.getVolume())).toBe(0.5);
    expect((await page.evaluate(() => window.player.unmute())).muted).toBe(false);
    expect(await page.evaluate(() => window.player.isMuted())).toBe(false);
    expect((await page.evaluate(() => window.player.mute())).muted).toBe(true);
    await expect.poll(() => eventNames(page)).toContain('volumechange');

    // to the end: `ended` arrives
    await page.evaluate(async () => { await window.player.seek(7); await window.player.play(); });
    await expect.poll(() => eventNames(page), { timeout: 10_000 }).toContain('ended');

    const names = await eventNames(page);
    for (const name of ['ready', 'play', 'pause', 'timeupdate', 'seeked', 'qualitychange', 'volumechange', 'ended']) expect(names, name).toContain(name);
    expect(names[0]).toBe('ready');
    expect(problems).toEqual([]);
  });

  test('rejects bad commands with a PlayerError, and a video that cannot play rejects ready()', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(blogWithSdk(thirdParty, site, '/sdk-errors.html', { videoId: video.id, muted: true }));
    const refused = await page.evaluate(async () => {
      await window.player.ready();
      const codes: string[] = [];
      for (const attempt of [() => window.player.setQuality('4320p'), () => window.player.setVolume(2), () => window.player.seek(-1), () => window.player.setCaptions('xx')]) {
        try {
          await attempt();
          codes.push('accepted');
        } catch (error) {
          codes.push(`${(error as Error).name}:${(error as { code: string }).code}`);
        }
      }
      return codes;
    });
    expect(refused).toEqual(Array(4).fill('PlayerError:bad-command'));

    await page.goto(blogWithSdk(thirdParty, site, '/sdk-unavailable.html', { videoId: 'no-such-video', muted: true }));
    const outcome = await page.evaluate(() => window.player.ready().then(() => 'ready', (e: { name: string; code: string }) => `${e.name}:${e.code}`));
    expect(outcome).toBe('PlayerError:unavailable');
    await expect.poll(() => page.evaluate(() => window.events.map((e) => `${e.name}:${e.error}`))).toEqual(['error:unavailable']);
    const play = await page.evaluate(() => window.player.play().then(() => 'played', (e: { code: string }) => e.code));
    expect(play).toBe('unavailable');
  });

  test('rejects ready() at once with the problem the player page shows: embed() with a bad option', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    // a timeout far above what the test allows: only the page's own message can end ready() in time
    await page.goto(blogWithSdk(thirdParty, site, '/sdk-bad-option.html', { videoId: video.id, rate: 3, timeout: 30_000 }));
    const result = await page.evaluate(async () => {
      const failed = await window.player.ready().then(() => undefined, (e: InstanceType<Window['VideoPlatform']['PlayerError']>) => e);
      const at = performance.now(); // from the page's start
      const play = await window.player.play().then(() => 'played', (e: Error) => e.message);
      return { at, name: failed?.name, code: failed?.code, message: failed?.message, problem: failed?.problem, isPlayerError: failed instanceof window.VideoPlatform.PlayerError, play, afterPlay: performance.now() - at };
    });
    const detail = 'rate: must be one of 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2';
    expect(result).toMatchObject({ name: 'PlayerError', code: 'bad-option', isPlayerError: true });
    expect(result.problem).toEqual({ status: 400, title: 'Invalid parameter', detail, errors: [{ parameter: 'rate', detail: 'must be one of 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2' }] });
    expect(result.message).toBe(`Invalid parameter (HTTP 400): ${detail}`);
    expect(result.at).toBeLessThan(5000);
    // a later command fails the same way, at once
    expect(result.play).toBe(result.message);
    expect(result.afterPlay).toBeLessThan(100);
    expect(await page.evaluate(() => window.events.map((e) => `${e.name}:${e.error}`))).toEqual(['error:bad-option']);
    // the viewer still sees the problem in the frame
    await expect(page.frameLocator('#player iframe').getByRole('alert')).toContainText(detail);
  });

  test('rejects ready() with the player\'s own words for a start it refuses (a negative start is not played from 0)', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(blogWithSdk(thirdParty, site, '/sdk-negative-start.html', { videoId: video.id, start: -5, timeout: 30_000 }));
    const failed = await page.evaluate(() => window.player.ready().then(() => undefined, (e: InstanceType<Window['VideoPlatform']['PlayerError']>) => ({ code: e.code, problem: e.problem })));
    expect(failed).toEqual({ code: 'bad-option', problem: expect.objectContaining({ status: 400, errors: [{ parameter: 'start', detail: 'must be a whole number of seconds from 0 to 1000000' }] }) });
    expect(await page.frameLocator('#player iframe').locator('iframe, video').count()).toBe(0);
  });

  test('rejects ready() at once with no-media for an attached live player, which has no stream to play', async ({ page, site, thirdParty }) => {
    const channel = [...site.truth.channels.values()][0]!;
    await page.goto(thirdParty.page('/attach-live.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attach live</title></head><body><main><h1>A live channel</h1>
<iframe id="live" title="Live" src="${site.base}/embed/live/${enc(channel.username)}" width="480" height="270"></iframe>
</main><script src="${site.base}/sdk.js"></script>
<script>
  window.live = VideoPlatform.attach('#live', { timeout: 30000 });
  window.liveOutcome = live.ready().then(() => 'ready', (e) => ({ name: e.name, code: e.code, message: e.message, problem: e.problem, at: performance.now() }));
</script></body></html>`));
    const result = await page.evaluate(async () => {
      const w = window as unknown as { live: import('../../src/sdk/embed.ts').Player; liveOutcome: Promise<{ at: number }> };
      const outcome = await w.liveOutcome;
      const play = await w.live.play().then(() => 'played', (e: { code: string }) => e.code);
      return { outcome, play };
    });
    expect(result.outcome).toMatchObject({ name: 'PlayerError', code: 'no-media' });
    expect((result.outcome as unknown as { message: string }).message).toMatch(new RegExp(`^${channel.displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (live now|upcoming|offline)\\. This player shows a live channel's state; it has no stream to play\\.$`));
    expect((result.outcome as unknown as { problem?: unknown }).problem).toBeUndefined();
    expect(result.outcome.at).toBeLessThan(5000);
    expect(result.play).toBe('no-media');
    // the viewer still sees the channel's state
    await expect(page.frameLocator('#live').getByRole('status')).toContainText(channel.displayName);
  });

  test('rejects ready() at once for attached iframes showing an error page: a bad option, an unknown live channel', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(thirdParty.page('/attach-errors.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attach errors</title></head><body><main><h1>Pasted by hand</h1>
<iframe id="option" title="Bad options" src="${site.base}/embed/${enc(video.id)}?rate=3&end=0" width="480" height="270"></iframe>
<iframe id="channel" title="Unknown channel" src="${site.base}/embed/live/nobody-here" width="480" height="270"></iframe>
</main><script src="${site.base}/sdk.js"></script>
<script>
  // one attached before its frame has loaded (the page's message reaches it), one long after (its answer to the SDK's probe does)
  window.early = VideoPlatform.attach('#channel', { timeout: 30000 });
  window.earlyOutcome = early.ready().then(() => 'ready', (e) => ({ code: e.code, message: e.message, problem: e.problem, at: performance.now() }));
</script></body></html>`));
    const result = await page.evaluate(async () => {
      const w = window as unknown as { early: import('../../src/sdk/embed.ts').Player; earlyOutcome: Promise<unknown> };
      const early = await w.earlyOutcome;
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the frames have long loaded and said their piece
      const late = window.VideoPlatform.attach('#option', { timeout: 30000 });
      const started = performance.now();
      const outcome = await late.ready().then(() => 'ready', (e: InstanceType<Window['VideoPlatform']['PlayerError']>) => ({ code: e.code, message: e.message, problem: e.problem }));
      const took = performance.now() - started;
      const command = await w.early.getState().then(() => 'answered', (e: Error) => e.message);
      return { early, late: outcome, took, command };
    });
    expect(result.early).toMatchObject({
      code: 'unavailable',
      message: 'Not found (HTTP 404): Nothing is at /embed/live/nobody-here.',
      problem: { status: 404, title: 'Not found', detail: 'Nothing is at /embed/live/nobody-here.' },
    });
    expect((result.early as { at: number }).at).toBeLessThan(5000);
    expect(result.command).toBe('Not found (HTTP 404): Nothing is at /embed/live/nobody-here.');
    expect(result.late).toEqual({
      code: 'bad-option',
      message: 'Invalid parameter (HTTP 400): Invalid parameters: end, rate (end: must be a whole number of seconds from 1 to 1000000, after start; rate: must be one of 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2)',
      problem: {
        status: 400, title: 'Invalid parameter', detail: 'Invalid parameters: end, rate',
        errors: [{ parameter: 'end', detail: 'must be a whole number of seconds from 1 to 1000000, after start' }, { parameter: 'rate', detail: 'must be one of 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2' }],
      },
    });
    expect(result.took).toBeLessThan(2000);
  });

  test('a forged error message, posted by the host page or another frame, does not reject a good player\'s ready()', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    const forged = { protocol: 'video-platform', version: 1, kind: 'event', event: 'error', state: { videoId: video.id }, error: { code: 'bad-option', message: 'forged', problem: { status: 400, title: 'Invalid parameter', detail: 'forged' } } };
    await page.goto(thirdParty.page('/sdk-forged-error.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forged</title>
<script src="${site.base}/sdk.js"></script></head><body><main><h1>A blog post</h1><div id="player"></div></main>
<script>
  window.events = [];
  window.player = VideoPlatform.embed('#player', { videoId: ${JSON.stringify(video.id)}, muted: true });
  player.on('error', (state, error) => events.push({ name: 'error', error: error && error.code }));
  // before the player has loaded: the page itself, and a frame of the page, claim it cannot play
  window.postMessage(${JSON.stringify(forged)}, '*');
  const other = document.createElement('iframe');
  other.srcdoc = '<script>parent.postMessage(' + ${JSON.stringify(JSON.stringify(forged))} + ', "*")<\\/script>';
  document.body.append(other);
</script></body></html>`));
    const state = await page.evaluate(() => window.player.ready());
    expect(state.videoId).toBe(video.id);
    expect(await page.evaluate(() => window.events)).toEqual([]);
    expect((await page.evaluate(() => window.player.setVolume(0.5))).volume).toBe(0.5);
  });

  test('the error page, like the player, speaks only to the origin the embed names, and not at all when that option is invalid', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    const src = (origin: string) => `${site.base}/embed/${enc(video.id)}?rate=3&origin=${enc(origin)}`;
    await page.goto(thirdParty.page('/error-origins.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error origins</title></head><body>
<iframe id="mine" title="mine" src="${src(thirdParty.origin)}"></iframe>
<iframe id="theirs" title="theirs" src="${src('https://elsewhere.example')}"></iframe>
<iframe id="invalid" title="invalid" src="${src(`${thirdParty.origin}/path`)}"></iframe>
<script>
  window.heard = [];
  const from = (source) => ['mine', 'theirs', 'invalid'].find((id) => document.getElementById(id).contentWindow === source) || 'other';
  addEventListener('message', (e) => heard.push(from(e.source) + ':' + e.data.kind + ':' + (e.data.error && e.data.error.code)));
</script></body></html>`));
    await expect.poll(() => page.evaluate(() => (window as unknown as { heard: string[] }).heard)).toEqual(['mine:event:bad-option']);
    // each frame is asked for its state: only the one whose origin option names this page answers
    const heard = await page.evaluate(async () => {
      for (const id of ['mine', 'theirs', 'invalid']) {
        (document.getElementById(id) as HTMLIFrameElement).contentWindow!.postMessage({ protocol: 'video-platform', version: 1, id: 7, command: 'state' }, '*');
      }
      await new Promise((resolve) => setTimeout(resolve, 800));
      return (window as unknown as { heard: string[] }).heard;
    });
    expect(heard).toEqual(['mine:event:bad-option', 'mine:response:bad-option']);
    // every frame still shows its problem
    for (const id of ['mine', 'theirs', 'invalid']) await expect(page.frameLocator(`#${id}`).getByRole('alert')).toContainText('Invalid parameter');
  });

  test('the error page works without JavaScript, inside a third-party page', async ({ browser, site, thirdParty }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const video = playable(site);
    await page.goto(thirdParty.page('/no-script.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No script</title></head><body><main><h1>Pasted by hand</h1>
<iframe title="Bad option" src="${site.base}/embed/${enc(video.id)}?rate=3" width="480" height="270"></iframe>
</main></body></html>`));
    await expect(page.frameLocator('iframe').getByRole('alert')).toContainText('rate: must be one of 0.25, 0.5');
    await expect(page.frameLocator('iframe').getByRole('alert')).toContainText('HTTP 400');
    await context.close();
  });

  test('hears only its own player: messages forged by the page, or from another frame, are ignored', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(blogWithSdk(thirdParty, site, '/sdk-forged.html', { videoId: video.id, muted: true }));
    const state = await page.evaluate(() => window.player.ready());
    await page.evaluate((s) => {
      const forged = { protocol: 'video-platform', version: 1, kind: 'event', event: 'pause', state: { ...s, paused: true } };
      window.postMessage(forged, '*');
      const other = document.createElement('iframe');
      other.srcdoc = `<script>parent.postMessage(${JSON.stringify(forged)}, '*')<\/script>`;
      document.body.append(other);
    }, state);
    await page.waitForTimeout(500);
    expect(await eventNames(page)).toEqual(['ready']);
    // while the real player's events still arrive
    await page.evaluate(() => window.player.setVolume(0.5));
    await expect.poll(() => eventNames(page)).toEqual(['ready', 'volumechange']);
  });

  test('sends events only to the origin the embed names, and takes commands only from it', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    const url = thirdParty.page('/raw-iframes.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Raw</title></head><body>
<iframe id="mine" title="mine" src="${site.base}/embed/${enc(video.id)}?origin=${enc(thirdParty.origin)}"></iframe>
<iframe id="theirs" title="theirs" src="${site.base}/embed/${enc(video.id)}?origin=${enc('https://elsewhere.example')}"></iframe>
<script>
  window.heard = [];
  addEventListener('message', (e) => heard.push(e.source === document.getElementById('mine').contentWindow ? 'mine' : 'theirs'));
</script></body></html>`);
    await page.goto(url);
    await expect.poll(() => page.evaluate(() => (window as unknown as { heard: string[] }).heard)).toContain('mine');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { heard: string[] }).heard)).not.toContain('theirs');

    // a frame of another origin (a sandboxed ad, say) asks for the state: no answer; the page itself gets one
    const answers = await page.evaluate(async () => {
      const mine = (document.getElementById('mine') as HTMLIFrameElement).contentWindow!;
      const got: string[] = [];
      addEventListener('message', (e) => { if ((e.data as { from?: string }).from) got.push((e.data as { from: string }).from); });
      const ad = document.createElement('iframe');
      ad.sandbox.add('allow-scripts');
      ad.srcdoc = `<script>
        addEventListener('message', () => parent.postMessage({ from: 'ad' }, '*'));
        parent.frames[0].postMessage({ protocol: 'video-platform', version: 1, id: 1, command: 'state' }, '*');
      <\/script>`;
      document.body.append(ad);
      addEventListener('message', (e) => { if (e.source === mine && (e.data as { kind?: string }).kind === 'response') got.push('page'); });
      mine.postMessage({ protocol: 'video-platform', version: 1, id: 2, command: 'state' }, '*');
      await new Promise((resolve) => setTimeout(resolve, 800));
      return got;
    });
    expect(answers).toEqual(['page']);
  });

  test('lists videos through the client, page by page, with problems and timeouts as errors', async ({ page, site, thirdParty }) => {
    const channel = [...site.truth.channels.keys()].find((username) => site.truth.publicVideos.filter((v) => v.channel === username).length > 7)!;
    const expectedCount = site.truth.publicVideos.filter((v) => v.channel === channel).length;
    const firstPage = await site.json<{ data: { id: string }[] }>('/v1/videos?limit=5&sort=views');
    await page.goto(thirdParty.page('/client.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Client</title><script src="${site.base}/sdk.js"></script></head><body></body></html>`));
    const result = await page.evaluate(async ({ channel }) => {
      const client = window.VideoPlatform.createClient();
      const first = await client.listVideos({ sort: 'views', limit: 5 });
      let pages = 0;
      for await (const p of client.listChannelVideos(channel, { limit: 3 })) pages += p.data.length > 0 ? 1 : 0;
      const ids: string[] = [];
      for await (const v of client.listChannelVideos(channel, { limit: 3 }).items()) ids.push(v.id);
      const video = await client.getVideo(first.data[0]!.id);
      let notFound: unknown;
      try {
        await client.getVideo('no-such-video');
      } catch (error) {
        const e = error as InstanceType<Window['VideoPlatform']['ApiError']>;
        notFound = { name: e.name, status: e.status, type: e.problem?.type, isApiError: e instanceof window.VideoPlatform.ApiError };
      }
      let invalid: unknown;
      try {
        await client.listVideos({ limit: 500 });
      } catch (error) {
        invalid = (error as InstanceType<Window['VideoPlatform']['ApiError']>).problem?.errors;
      }
      let timedOut = '';
      try {
        await window.VideoPlatform.createClient({ baseUrl: `${location.origin}/hang`, timeout: 300 }).getHealth();
      } catch (error) {
        timedOut = (error as Error).name;
      }
      const oembed = await window.VideoPlatform.oembed(video.watchUrl, { maxwidth: 400 });
      return { base: client.baseUrl, first: first.data.map((v) => v.id), pages, ids, title: video.title, notFound, invalid, timedOut, oembed: { width: oembed.width, type: oembed.type } };
    }, { channel });
    expect(result.base).toBe(site.base);
    expect(result.first).toEqual(firstPage.data.map((v) => v.id));
    expect(result.pages).toBe(Math.ceil(expectedCount / 3));
    expect(result.ids.length).toBe(expectedCount);
    expect(new Set(result.ids).size).toBe(expectedCount);
    expect(result.notFound).toEqual({ name: 'ApiError', status: 404, type: `${site.base}/problems/not-found`, isApiError: true });
    expect(result.invalid).toEqual([{ parameter: 'limit', detail: 'must be an integer from 1 to 50' }]);
    expect(result.timedOut).toBe('TimeoutError');
    expect(result.oembed).toEqual({ width: 400, type: 'video' });
  });

  test('works as an ES module from /sdk.mjs too', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(thirdParty.page('/module.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Module</title></head><body><div id="p"></div>
<script type="module">
  import { createClient, embed, version } from '${site.base}/sdk.mjs';
  const client = createClient();
  const player = embed('#p', { videoId: ${JSON.stringify(video.id)}, muted: true });
  window.result = Promise.all([client.getVideo(${JSON.stringify(video.id)}), player.ready()]).then(([v, s]) => ({ title: v.title, ready: s.videoId, version }));
</script></body></html>`));
    const result = await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result);
    expect(result).toEqual({ title: video.title, ready: video.id, version: '1.5.2' });
  });
});

test.describe('the oEmbed html on a third-party page', () => {
  test('renders the player, which plays', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    const problems = watchProblems(page);
    const oembed = await site.json<{ html: string; width: number; height: number }>(`/oembed?url=${enc(`${site.base}/watch/${enc(video.id)}`)}&maxwidth=480`);
    await page.goto(thirdParty.page('/oembed-post.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Post</title></head><body><main><h1>Watch this</h1>${oembed.html}</main></body></html>`));
    const iframe = page.locator('iframe');
    await expect(iframe).toHaveAttribute('width', '480');
    expect(await iframe.evaluate((f) => [(f as HTMLIFrameElement).offsetWidth, (f as HTMLIFrameElement).offsetHeight])).toEqual([480, 270]);
    const frame = page.frameLocator('iframe');
    await expect(frame.locator('video')).toBeVisible();
    await frame.getByRole('button', { name: 'Mute' }).click();
    await frame.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => frame.locator('video').evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
    await expect(frame.getByRole('button', { name: 'Pause' })).toBeVisible();
    expect(problems).toEqual([]);
  });
});

test.describe('the player page itself', () => {
  test('works from the keyboard: play, pause, seek, mute, volume, captions, quality', async ({ page, site }) => {
    const video = playable(site);
    await page.goto(`${site.base}/embed/${enc(video.id)}?muted=1`);
    const media = page.locator('video');
    const time = () => media.evaluate((v) => (v as HTMLVideoElement).currentTime);

    await page.keyboard.press('Tab'); // the video itself
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Play' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(time, { timeout: 10_000 }).toBeGreaterThan(0.3);
    await expect(page.getByRole('button', { name: 'Pause' })).toBeFocused();
    await page.keyboard.press('k');
    await expect.poll(() => media.evaluate((v) => (v as HTMLVideoElement).paused)).toBe(true);

    await page.keyboard.press('Tab');
    await expect(page.getByRole('slider', { name: 'Seek' })).toBeFocused();
    const before = await time();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(time).toBeGreaterThan(before + 0.5);

    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Unmute' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => media.evaluate((v) => (v as HTMLVideoElement).muted)).toBe(false);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('slider', { name: 'Volume' })).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => media.evaluate((v) => (v as HTMLVideoElement).volume)).toBeLessThan(1);

    // captions, quality and speed are in the settings panel: one row of controls fits a phone
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Settings' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('group', { name: 'Settings' })).toBeVisible();
    await page.keyboard.press('Tab');
    const captions = page.getByRole('combobox', { name: 'Captions' });
    await expect(captions).toBeFocused();
    await captions.selectOption(video.captions[0]!.lang);
    await expect.poll(() => media.evaluate((v) => Array.from((v as HTMLVideoElement).textTracks).filter((t) => t.mode === 'showing').map((t) => t.language))).toEqual([video.captions[0]!.lang]);
    await page.keyboard.press('c');
    await expect.poll(() => media.evaluate((v) => Array.from((v as HTMLVideoElement).textTracks).filter((t) => t.mode === 'showing').length)).toBe(0);

    await page.keyboard.press('Tab');
    const quality = page.getByRole('combobox', { name: 'Quality' });
    await expect(quality).toBeFocused();
    await quality.selectOption('240p');
    await expect.poll(() => media.evaluate((v) => (v as HTMLVideoElement).currentSrc)).toMatch(/sample-240\.webm$/);

    await page.locator('body').press('m');
    await expect.poll(() => media.evaluate((v) => (v as HTMLVideoElement).muted)).toBe(true);
  });

  test('switches calm audio, 3D and theater mode, and has no accessibility violations', async ({ page, site, thirdParty }) => {
    const calm = site.truth.publicVideos.find((v) => v.sources.length > 0 && v.features.calm)!;
    const stereo = site.truth.publicVideos.find((v) => v.sources.length > 0 && v.features['3d'])!;
    await page.goto(`${site.base}/embed/${enc(calm.id)}?muted=1`);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    await page.getByRole('button', { name: 'Settings' }).click();
    const calmButton = page.getByRole('button', { name: 'Calm audio' });
    await calmButton.click();
    await expect(calmButton).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => page.locator('video').evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);

    await page.goto(`${site.base}/embed/${enc(stereo.id)}`);
    await page.getByRole('button', { name: 'Settings' }).click();
    const stereoButton = page.getByRole('button', { name: '3D' });
    const viewBox = () => page.locator('video').evaluate((v) => getComputedStyle(v).getPropertyValue('object-view-box'));
    expect(await viewBox()).toMatch(/inset\(0(px)? 50%/);
    await stereoButton.click();
    await expect(stereoButton).toHaveAttribute('aria-pressed', 'true');
    expect(await viewBox()).toBe('none');

    await page.goto(blogWithSdk(thirdParty, site, '/theater.html', { videoId: calm.id, muted: true }));
    await page.evaluate(() => window.player.ready());
    await page.frameLocator('iframe').getByRole('button', { name: 'Theater mode' }).click();
    await expect.poll(() => page.evaluate(() => window.events.filter((e) => e.name === 'modechange').map((e) => e.mode))).toEqual(['theater']);
    await expect(page.locator('#player iframe')).toHaveAttribute('data-mode', 'theater');
  });

  test('says a video is unavailable with a 404 page, and one without media says so', async ({ page, site }) => {
    const res = await page.goto(`${site.base}/embed/no-such-video`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('status')).toContainText('unavailable');
    const silent = site.truth.publicVideos.find((v) => v.sources.length === 0)!;
    await page.goto(`${site.base}/embed/${enc(silent.id)}`);
    await expect(page.getByRole('status')).toContainText('no playable media');
  });
});

/** Another public video with media, for load() and cue(). */
const another = (site: Site, not: string) => site.truth.publicVideos.find((v) => v.sources.length > 0 && v.id !== not)!;
const stateOf = (page: Page) => page.evaluate(() => window.player.getState());

test.describe('the player under rapid commands', () => {
  test('applies quality, pause, seek and rate sent back to back in order: the final state is the last asked', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(blogWithSdk(thirdParty, site, '/rapid.html', { videoId: video.id, muted: true }));
    await page.evaluate(async () => {
      await window.player.ready();
      await window.player.play();
    });
    await expect.poll(() => page.evaluate(() => window.player.getCurrentTime()), { timeout: 10_000 }).toBeGreaterThan(0.5);
    // not awaited one by one: all four are in flight while the new rendition loads
    const answers = await page.evaluate(() => Promise.all([
      window.player.setQuality('240p'), window.player.pause(), window.player.seek(3), window.player.setPlaybackRate(1.5),
    ]));
    expect(answers[3]).toMatchObject({ quality: '240p', paused: true, rate: 1.5 });
    expect(answers[3].currentTime).toBeCloseTo(3, 1);
    // the old code restored "playing" when the new source's metadata arrived, and lost the seek
    await page.waitForTimeout(2000);
    const after = await stateOf(page);
    expect(after).toMatchObject({ quality: '240p', paused: true, rate: 1.5 });
    expect(after.currentTime).toBeCloseTo(3, 1);
    const media = page.frameLocator('iframe').locator('video');
    expect(await media.evaluate((v) => (v as HTMLVideoElement).currentSrc)).toMatch(/sample-240\.webm$/);

    // awaited one by one, as the issue's report did: still paused 2 s later
    await page.evaluate(async () => {
      await window.player.play();
      await window.player.setQuality('480p');
      await window.player.pause();
    });
    await page.waitForTimeout(2000);
    expect(await stateOf(page)).toMatchObject({ quality: '480p', paused: true, rate: 1.5 });
  });
});

test.describe('the player API a YouTube or Vimeo developer expects', () => {
  test('rates, stop, end, once(), text tracks and the extra events', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(blogWithSdk(thirdParty, site, '/api.html', { videoId: video.id, muted: true, rate: 1.25, end: 2 }));
    const ready = await page.evaluate(() => window.player.ready());
    expect(ready).toMatchObject({ rate: 1.25, rates: [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] });
    expect(await page.evaluate(() => window.player.getAvailablePlaybackRates())).toEqual([0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]);
    expect(await page.evaluate(() => window.player.getTextTracks())).toEqual(video.captions.filter((c) => c.url !== null).map((c) => ({ lang: c.lang, label: c.label })));
    expect(await page.locator('#player iframe').getAttribute('src')).toContain('rate=1.25');

    // once(): heard the first time only
    const onceCount = await page.evaluate(async () => {
      let heard = 0;
      window.player.once('ratechange', () => { heard += 1; });
      await window.player.setPlaybackRate(2);
      await window.player.setPlaybackRate(0.5);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return heard;
    });
    expect(onceCount).toBe(1);
    expect(await page.evaluate(() => window.player.getPlaybackRate())).toBe(0.5);
    await expect(page.evaluate(() => window.player.setPlaybackRate(3))).rejects.toThrow(/rate must be one of/);

    // `end`: playback stops at 2 s and says ended
    await page.evaluate(async () => { await window.player.setPlaybackRate(2); await window.player.play(); });
    await expect.poll(() => eventNames(page), { timeout: 10_000 }).toContain('ended');
    const ended = await stateOf(page);
    expect(ended).toMatchObject({ paused: true, ended: true });
    expect(ended.currentTime).toBeGreaterThanOrEqual(2);
    expect(ended.currentTime).toBeLessThan(3);

    // stop: paused, back at the start
    expect(await page.evaluate(() => window.player.stop())).toMatchObject({ paused: true, currentTime: 0, ended: false });

    for (const name of ['ready', 'ratechange', 'play', 'playing', 'seeking', 'seeked', 'durationchange', 'progress', 'timeupdate', 'pause', 'ended']) {
      await expect.poll(() => eventNames(page), name).toContain(name);
    }
    // one ratechange per change of rate
    expect((await eventNames(page)).filter((n) => n === 'ratechange').length).toBe(3); // 2, 0.5, 2
  });

  test('loads and cues another video in place, and refuses an unknown one without losing the current', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    const next = another(site, video.id);
    await page.goto(blogWithSdk(thirdParty, site, '/load.html', { videoId: video.id, muted: true }));
    await page.evaluate(() => window.player.ready());
    const cued = await page.evaluate((id) => window.player.cue(id, { start: 2 }), next.id);
    expect(cued).toMatchObject({ videoId: next.id, paused: true });
    expect(cued.currentTime).toBeCloseTo(2, 0);
    await expect.poll(() => eventNames(page)).toContain('loaded');
    const frame = page.frameLocator('iframe');
    await expect(frame.locator('video')).toHaveAttribute('aria-label', next.title);

    const loaded = await page.evaluate((id) => window.player.load(id), video.id);
    expect(loaded.videoId).toBe(video.id);
    await expect.poll(() => page.evaluate(() => window.player.state?.paused), { timeout: 10_000 }).toBe(false);

    const refused = await page.evaluate(() => window.player.load('no-such-video').then(() => 'loaded', (e: { code: string }) => e.code));
    expect(refused).toBe('unavailable');
    expect((await stateOf(page)).videoId).toBe(video.id);
  });

  test('keyboard=0 turns the shortcuts off, playsinline=0 lets phones go full screen, and the bar still works', async ({ page, site }) => {
    const video = playable(site);
    await page.goto(`${site.base}/embed/${enc(video.id)}?muted=1&keyboard=0&playsinline=0`);
    const media = page.locator('video');
    expect(await media.evaluate((v) => (v as HTMLVideoElement).playsInline)).toBe(false);
    await media.focus();
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(500);
    expect(await media.evaluate((v) => [(v as HTMLVideoElement).paused, (v as HTMLVideoElement).currentTime])).toEqual([true, 0]);
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => media.evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 10_000 }).toBeGreaterThan(0.3);
    // a bad option: the browser gets the 400 as a page in the player that names each bad option
    const bad = await page.goto(`${site.base}/embed/${enc(video.id)}?rate=3&end=0`);
    expect(bad?.status()).toBe(400);
    expect(await bad!.headerValue('content-type')).toBe('text/html; charset=utf-8');
    await expect(page.getByRole('alert')).toContainText('Invalid parameter');
    await expect(page.getByRole('alert').locator('li')).toHaveText([/^end: must be/, /^rate: must be one of/]);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  });

  test('shows its errors inside the embedding page: a bad option, an unknown live channel', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(thirdParty.page('/bad-embeds.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad embeds</title></head><body><main><h1>Pasted by hand</h1>
<iframe title="Bad option" src="${site.base}/embed/${enc(video.id)}?rate=3" width="480" height="270"></iframe>
<iframe title="Unknown channel" src="${site.base}/embed/live/nobody-here" width="480" height="270"></iframe>
</main></body></html>`));
    const option = page.frameLocator('iframe[title="Bad option"]').getByRole('alert');
    await expect(option).toContainText('Invalid parameter');
    await expect(option).toContainText('rate: must be one of 0.25, 0.5');
    const channel = page.frameLocator('iframe[title="Unknown channel"]').getByRole('alert');
    await expect(channel).toContainText('Nothing is at /embed/live/nobody-here.');
    // drawn as the player is, in the frame: the message fits it, on the player's black
    const box = await option.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(480);
    expect(await page.frameLocator('iframe[title="Bad option"]').locator('body').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(0, 0, 0)');
  });

  test('attaches to an iframe pasted from oEmbed, and to one marked data-video-platform', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    const next = another(site, video.id);
    const oembed = await site.json<{ html: string }>(`/oembed?url=${enc(`${site.base}/watch/${enc(video.id)}`)}&maxwidth=480`);
    expect(oembed.html).toContain('allow="autoplay; fullscreen; picture-in-picture; encrypted-media"');
    expect(oembed.html).not.toContain('allowfullscreen');
    await page.goto(thirdParty.page('/attach.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Attach</title></head><body><main><h1>Pasted</h1>
${oembed.html}
<iframe data-video-platform title="Second" src="${site.base}/embed/${enc(next.id)}?muted=1" allow="autoplay; fullscreen"></iframe>
</main><script src="${site.base}/sdk.js"></script></body></html>`));
    const result = await page.evaluate(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the players are ready long before the SDK attaches
      const players = window.VideoPlatform.attachAll();
      const states = await Promise.all(players.map((p) => p.ready()));
      const paused = await players[1]!.mute().then(() => players[1]!.play()).then(() => players[1]!.pause());
      return { ids: states.map((s) => s.videoId), paused: paused.paused, sameFrame: players[0]!.iframe === document.querySelector('iframe') };
    });
    expect(result).toEqual({ ids: [video.id, next.id], paused: true, sameFrame: true });
  });

  test('asks for full screen from a click on the host page, passing the click on to the player', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(blogWithSdk(thirdParty, site, '/fullscreen.html', { videoId: video.id, muted: true }));
    await page.evaluate(() => window.player.ready());
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      // the same command posted by hand, without passing the gesture on: the browser refuses it
      const raw = document.createElement('button');
      raw.textContent = 'Without delegation';
      raw.addEventListener('click', () => {
        addEventListener('message', (e) => { if ((e.data as { id?: number }).id === 99) (window as unknown as { raw: unknown }).raw = (e.data as { error?: { code: string } }).error?.code ?? 'granted'; });
        window.player.iframe.contentWindow!.postMessage({ protocol: 'video-platform', version: 1, id: 99, command: 'fullscreen', on: true }, '*');
      });
      const button = document.createElement('button');
      button.textContent = 'Watch full screen';
      button.addEventListener('click', () => { void window.player.requestFullscreen(); });
      main.append(raw, button);
    });
    await page.getByRole('button', { name: 'Without delegation' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { raw?: string }).raw)).toBe('not-allowed');
    await page.getByRole('button', { name: 'Watch full screen' }).click();
    await expect.poll(() => page.evaluate(() => window.events.filter((e) => e.name === 'modechange').map((e) => e.mode))).toContain('fullscreen');
    expect((await page.evaluate(() => window.player.exitFullscreen())).mode).toBe('inline');
  });
});

test.describe('the player on small screens', () => {
  /** Boxes of the bar's visible controls. */
  const controlBoxes = (page: Page, frame = page.mainFrame()) => frame.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('.bar > *'))
    .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).display !== 'none' && !e.classList.contains('panel'))
    .map((e) => { const r = e.getBoundingClientRect(); return { name: e.getAttribute('aria-label') ?? e.className, top: r.top, bottom: r.bottom, left: r.left, right: r.right }; }));

  test('at 390 × 844 the controls are one row inside the viewport, drawn as SVG icons, with a compact settings menu', async ({ page, site }) => {
    const video = playable(site);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${site.base}/embed/${enc(video.id)}?muted=1`);
    await page.locator('video').hover();
    const boxes = await controlBoxes(page);
    expect(boxes.length).toBeGreaterThanOrEqual(5);
    const tops = new Set(boxes.map((b) => Math.round((b.top + b.bottom) / 8)));
    expect(tops.size, JSON.stringify(boxes)).toBe(1);
    for (const box of boxes) {
      expect(box.left, box.name).toBeGreaterThanOrEqual(0);
      expect(box.right, box.name).toBeLessThanOrEqual(390);
    }
    // icons are SVG, never text glyphs that need an emoji font
    const glyphs = await page.locator('.bar button.icon').evaluateAll((buttons) => buttons.map((b) => [b.querySelector('svg') !== null, b.textContent!.trim()]));
    for (const [hasSvg, text] of glyphs) expect([hasSvg, text]).toEqual([true, '']);
    await page.getByRole('button', { name: 'Settings' }).click();
    const captions = page.getByRole('combobox', { name: 'Captions' });
    await expect(captions).toBeVisible();
    expect((await captions.boundingBox())!.width).toBeLessThan(150);
    const panel = (await page.getByRole('group', { name: 'Settings' }).boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(390);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  });

  test('in a 320 × 180 embed the idle bar leaves the picture whole, and shows on hover in one row', async ({ page, site, thirdParty }) => {
    const video = playable(site);
    await page.goto(thirdParty.page('/small.html', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Small</title><style>body{margin:0}</style></head><body><main><iframe title="Player" src="${site.base}/embed/${enc(video.id)}?muted=1" width="320" height="180" style="border:0;display:block"></iframe></main></body></html>`));
    const frame = page.frames().find((f) => f.url().includes('/embed/'))!;
    await frame.waitForSelector('.bar:not([hidden])', { state: 'attached' });
    await page.mouse.move(319, 400); // outside the player
    await expect.poll(() => frame.evaluate(() => getComputedStyle(document.querySelector('.bar')!).opacity)).toBe('0');
    await page.mouse.move(160, 90);
    await expect.poll(() => frame.evaluate(() => getComputedStyle(document.querySelector('.bar')!).opacity)).toBe('1');
    const boxes = await controlBoxes(page, frame);
    expect(new Set(boxes.map((b) => Math.round((b.top + b.bottom) / 8))).size, JSON.stringify(boxes)).toBe(1);
    for (const box of boxes) expect(box.right, box.name).toBeLessThanOrEqual(320);
    expect(Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top))).toBeLessThan(40);
  });

  test('shows no play picture where nothing can play: a video without media, a live player', async ({ page, site }) => {
    const silent = site.truth.publicVideos.find((v) => v.sources.length === 0)!;
    await page.goto(`${site.base}/embed/${enc(silent.id)}`);
    await expect(page.getByRole('status')).toContainText('no playable media');
    expect(await page.locator('img, video, button').count()).toBe(0);
    const channel = [...site.truth.channels.keys()][0]!;
    await page.goto(`${site.base}/embed/live/${enc(channel)}`);
    await expect(page.getByRole('status')).toBeVisible();
    expect(await page.locator('img, video, button').count()).toBe(0);
  });
});

test.describe('chapters', () => {
  test('a video\'s chapters: markers on the seek bar, getChapters(), chapterchange, a WebVTT track, and Clip parts on its watch page', async ({ page, site, thirdParty }) => {
    type Chapter = { start: number; title: string };
    let video: { id: string; chapters?: Chapter[] } | undefined;
    for (const candidate of site.truth.publicVideos.filter((v) => v.sources.length > 0)) {
      const { data } = await site.json<{ data: { id: string; chapters?: Chapter[] } }>(`/v1/videos/${enc(candidate.id)}`);
      if (data.chapters) { video = data; break; }
    }
    expect(video, 'the seed gives some playable videos chapters').toBeDefined();
    const chapters = video!.chapters!;
    expect(chapters.length).toBeGreaterThan(1);

    await page.goto(blogWithSdk(thirdParty, site, '/chapters.html', { videoId: video!.id, muted: true }));
    await page.evaluate(() => window.player.ready());
    expect(await page.evaluate(() => window.player.getChapters())).toEqual(chapters);
    const frame = page.frameLocator('iframe');
    await expect(frame.locator('.marker')).toHaveCount(chapters.filter((c) => c.start > 0).length);
    expect(await frame.locator('.marker').evaluateAll((marks) => marks.map((m) => m.getAttribute('title')))).toEqual(chapters.filter((c) => c.start > 0).map((c) => c.title));

    const seeked = await page.evaluate((t) => window.player.seek(t), chapters[1]!.start + 0.5);
    expect(seeked.currentTime).toBeCloseTo(chapters[1]!.start + 0.5, 1);
    await expect.poll(() => page.evaluate(() => window.events.filter((e) => e.name === 'chapterchange').length)).toBeGreaterThan(0);
    expect((await stateOf(page)).chapter).toBe(1);

    // the track the player loads, and what the browser makes of it
    const vtt = await fetch(`${site.base}/embed/${enc(video!.id)}/chapters.vtt`);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const cues = await frame.locator('video').evaluate(async (v) => {
      const track = Array.from((v as HTMLVideoElement).textTracks).find((t) => t.kind === 'chapters')!;
      track.mode = 'hidden';
      for (let i = 0; i < 50 && !(track.cues && track.cues.length > 0); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      return Array.from(track.cues ?? []).map((c) => [c.startTime, (c as VTTCue).text]);
    });
    expect(cues).toEqual(chapters.map((c) => [c.start, c.title]));
    const silent = site.truth.publicVideos.find((v) => v.sources.length > 0 && v.id !== video!.id)!;
    const { data: silentResource } = await site.json<{ data: { chapters?: Chapter[] } }>(`/v1/videos/${enc(silent.id)}`);
    if (!silentResource.chapters) expect((await fetch(`${site.base}/embed/${enc(silent.id)}/chapters.vtt`)).status).toBe(404);

    await page.goto(`${site.base}/watch/${enc(video!.id)}`);
    const structured = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!) as { hasPart?: { '@type': string; name: string; startOffset: number; url: string }[] };
    expect(structured.hasPart?.map((p) => [p['@type'], p.name, p.startOffset])).toEqual(chapters.map((c) => ['Clip', c.title, c.start]));
    expect(structured.hasPart?.[1]?.url).toBe(`${site.base}/watch/${enc(video!.id)}?t=${chapters[1]!.start}`);
    // that link starts the watch page's player at the chapter
    await page.goto(structured.hasPart![1]!.url);
    await expect(page.locator('iframe.player')).toHaveAttribute('src', `${site.base}/embed/${enc(video!.id)}?start=${chapters[1]!.start}`);
  });
});
