import { describe, expect, it } from 'vitest';
import type { Playback } from '../../../src/model/schemas.ts';
import { buildPlayerConfig, type PlayerOptions } from '../../../src/player/config.ts';

const base = 'https://videos.example';
const options: PlayerOptions = {
  autoplay: false, muted: false, loop: false, controls: true, restricted: false, start: 0, end: undefined, rate: 1,
  playsinline: true, keyboard: true, quality: undefined, captions: undefined, origin: undefined,
};
const playback: Playback = {
  videoId: 'v1', modes: ['inline', 'theater', 'fullscreen', 'pip'],
  qualities: [{ label: '720p', height: 720 }, { label: '480p', height: 480 }], defaultQuality: '480p',
  sources: [
    { url: `${base}/media/v1-720.webm`, type: 'video/webm', quality: '720p', height: 720 },
    { url: `${base}/media/v1-480.webm`, type: 'video/webm', quality: '480p', height: 480 },
  ],
  captions: [{ lang: 'en', label: 'English', url: `${base}/media/v1.en.vtt` }, { lang: 'fr', label: 'Français', url: 'https://cdn.other/v1.fr.vtt' }, { lang: 'de', label: 'Deutsch' }],
  '3d': { available: false }, calmAudio: { available: true }, restrictedMode: { available: false },
};
const video = { title: 'A talk', thumbnailUrl: `${base}/thumbnails/v1.svg`, duration: 300, chapters: [{ start: 0, title: 'Intro' }, { start: 120, title: 'Demo' }] };

describe('buildPlayerConfig', () => {
  it('takes the video\'s media, the caption files on the player\'s own origin, chapters and features', () => {
    const config = buildPlayerConfig({ videoId: 'v1', video, playback, options, base });
    expect(config.unavailable).toBeUndefined();
    expect(config.quality).toBe('480p');
    expect(config.captions).toEqual([{ lang: 'en', label: 'English', url: `${base}/media/v1.en.vtt` }]);
    expect(config.chapters).toEqual(video.chapters);
    expect(config).toMatchObject({ title: 'A talk', duration: 300, poster: video.thumbnailUrl, features: { stereo: false, calm: true }, base });
  });

  it('starts at the quality asked for, or the best below it', () => {
    expect(buildPlayerConfig({ videoId: 'v1', video, playback, options: { ...options, quality: '1080p' }, base }).quality).toBe('720p');
    expect(buildPlayerConfig({ videoId: 'v1', video, playback, options: { ...options, quality: '500p' }, base }).quality).toBe('480p');
  });

  it('offers no calm audio when media is on another origin (Web Audio needs CORS)', () => {
    const elsewhere = { ...playback, sources: playback.sources.map((s) => ({ ...s, url: s.url.replace(base, 'https://cdn.other') })) };
    expect(buildPlayerConfig({ videoId: 'v1', video, playback: elsewhere, options, base }).features.calm).toBe(false);
  });

  it('says why nothing can play: unknown video, restricted mode, no media', () => {
    expect(buildPlayerConfig({ videoId: 'x', video: undefined, playback: undefined, options, base }).unavailable?.code).toBe('unavailable');
    expect(buildPlayerConfig({ videoId: 'v1', video, playback, options: { ...options, restricted: true }, base }).unavailable?.code).toBe('restricted');
    expect(buildPlayerConfig({ videoId: 'v1', video, playback: { ...playback, sources: [] }, options, base }).unavailable?.code).toBe('no-media');
    expect(buildPlayerConfig({ videoId: 'v1', video: { ...video, chapters: undefined }, playback, options, base }).chapters).toEqual([]);
  });
});
