// src/model/resources.ts and the URLs it writes (src/model/urls.ts).
import { describe, expect, it } from 'vitest';
import { CommentThread, Playback, Reply, Video } from '../../../src/model/schemas.ts';
import { durationText } from '../../../src/model/durations.ts';
import { toCategory, toCreator, toPlayback, toReply, toStoredComment, toThread, toVideo } from '../../../src/model/resources.ts';
import { avatarNameFor, createUrls } from '../../../src/model/urls.ts';
import { BASE_URL, channel, comment, video } from '../support/fixtures.ts';

const urls = createUrls(BASE_URL);
const creator = toCreator(channel('alice'), urls);
const source = (height: number, url = `https://media.example.test/v-${height}.mp4`) => ({ url, type: 'video/mp4', height });

describe('toVideo', () => {
  it('omits optional fields the catalogue has no value for, never writing null or undefined', () => {
    const resource = toVideo(video('v1'), creator, 0, urls);
    for (const key of ['description', 'category', 'duration', 'durationText', 'updatedAt']) expect(key in resource).toBe(false);
    expect(Object.values(resource)).not.toContain(undefined);
    expect(JSON.stringify(resource)).not.toContain('null');
    expect(Video.safeParse(resource).success).toBe(true);
  });

  it('includes the optional fields the catalogue gives, with durationText from duration', () => {
    const resource = toVideo(video('v1', { description: 'About', category: 'music', duration: 3723, updatedAt: '2026-02-01T00:00:00Z' }), creator, 4, urls);
    expect(resource).toMatchObject({ description: 'About', category: 'music', duration: 3723, durationText: durationText(3723), updatedAt: '2026-02-01T00:00:00Z', comments: 4 });
    expect(Video.safeParse(resource).success).toBe(true);
  });

  it('keeps a zero duration rather than dropping it', () => {
    expect(toVideo(video('v1', { duration: 0 }), creator, 0, urls)).toMatchObject({ duration: 0, durationText: '0:00' });
  });

  it('serves a generated thumbnail from its own origin when the catalogue has none', () => {
    const resource = toVideo(video('v1'), creator, 0, urls);
    expect(resource.thumbnailUrl).toBe(urls.thumbnail('v1'));
    expect(resource.thumbnailUrl.startsWith(`${BASE_URL}/`)).toBe(true);
  });

  it('keeps a thumbnail URL the catalogue gives, even on another host', () => {
    const thumbnailUrl = 'https://cdn.example.org/thumbs/v1.jpg';
    expect(toVideo(video('v1', { thumbnailUrl }), creator, 0, urls).thumbnailUrl).toBe(thumbnailUrl);
  });

  it('writes watch and embed URLs under the public base URL', () => {
    const resource = toVideo(video('v1'), creator, 0, urls);
    expect(resource.watchUrl).toBe(`${BASE_URL}/watch/v1`);
    expect(resource.embedUrl).toBe(`${BASE_URL}/embed/v1`);
  });

  it('writes the four feature flags, always', () => {
    const resource = toVideo(video('v1', { features: { '3d': true, calm: false, restricted: true, captions: false } }), creator, 0, urls);
    expect(resource.features).toEqual({ '3d': true, calm: false, restricted: true, captions: false });
  });

  it('writes the tags in catalogue order, and one shared, frozen features object per combination of flags', () => {
    const a = toVideo(video('v1', { tags: ['b', 'a'], features: { '3d': true, calm: false, restricted: true, captions: false } }), creator, 0, urls);
    const b = toVideo(video('v2', { features: { '3d': true, calm: false, restricted: true, captions: false } }), creator, 0, urls);
    expect(a.tags).toEqual(['b', 'a']);
    expect(a.features).toEqual({ '3d': true, calm: false, restricted: true, captions: false });
    expect(a.features).toBe(b.features);
    expect(Object.isFrozen(a.features)).toBe(true);
  });

  it('writes views and likes even when they are zero', () => {
    const resource = toVideo(video('v1'), creator, 0, urls);
    expect(resource.views).toBe(0);
    expect(resource.likes).toBe(0);
  });

  it('writes its fields in the order of docs/api-contract.md §2, the optional ones in their places', () => {
    const chapters = [{ start: 0, title: 'Intro' }];
    const full = toVideo(video('v1', { description: 'About', category: 'music', duration: 61, updatedAt: '2026-02-01T00:00:00Z', chapters }), creator, 2, urls);
    expect(Object.keys(full)).toEqual(['id', 'title', 'description', 'category', 'tags', 'duration', 'durationText', 'views', 'likes', 'comments',
      'publishedAt', 'updatedAt', 'privacy', 'thumbnailUrl', 'watchUrl', 'embedUrl', 'features', 'creator', 'chapters', 'thumbnails']);
    const bare = toVideo(video('v2', { thumbnailUrl: 'https://img.example.test/v2.jpg' }), creator, 0, urls);
    expect(Object.keys(bare)).toEqual(['id', 'title', 'tags', 'views', 'likes', 'comments', 'publishedAt', 'privacy', 'thumbnailUrl', 'watchUrl', 'embedUrl', 'features', 'creator']);
  });

  it('reads a record\'s description once (the model decodes it from UTF-8 at each read: stored-video.ts)', () => {
    let reads = 0;
    const record = { ...video('v1'), get description() { reads++; return 'About'; } };
    expect(toVideo(record, creator, 0, urls).description).toBe('About');
    expect(reads).toBe(1);
  });
});

describe('toCreator', () => {
  it('serves a generated avatar from its own origin when the channel has none', () => {
    const c = toCreator(channel('bob'), urls);
    expect(c.avatarUrl).toBe(urls.avatar('bob'));
    expect(c.avatarUrl!.startsWith(`${BASE_URL}/`)).toBe(true);
    expect(c.channelUrl).toBe(`${BASE_URL}/channels/bob`);
  });

  it('keeps an avatar URL the catalogue gives', () => {
    const avatarUrl = 'https://cdn.example.org/a/bob.png';
    expect(toCreator(channel('bob', { avatarUrl }), urls).avatarUrl).toBe(avatarUrl);
  });
});

describe('toThread and toReply (from the stored comments, src/model/entries.ts)', () => {
  it('writes a top-level comment with parentId null and its replies', () => {
    const c = comment('c1', 'v1');
    const r = comment('r1', 'v1', { parentId: 'c1' });
    const thread = toThread('v1', { ...toStoredComment(c, c.author), replies: [toStoredComment(r, r.author)] }, urls);
    const reply = toReply('v1', 'c1', toStoredComment(r, r.author), urls);
    expect(thread.parentId).toBeNull();
    expect(thread.replyCount).toBe(1);
    expect(thread.replies).toEqual([reply]);
    expect(reply.parentId).toBe('c1');
    expect(CommentThread.safeParse(thread).success).toBe(true);
    expect(Reply.safeParse(reply).success).toBe(true);
  });

  it('leaves out author.username when the commenter has none, and generates an avatar', () => {
    const c = comment('c1', 'v1', { author: { displayName: 'Viewer 2280' } });
    const thread = toThread('v1', { ...toStoredComment(c, c.author), replies: [] }, urls);
    expect('username' in thread.author).toBe(false);
    expect(thread.author.avatarUrl.startsWith(`${BASE_URL}/avatars/`)).toBe(true);
  });

  it('keeps the author username and avatar the catalogue gives', () => {
    const author = { displayName: 'Dee', username: 'dee', avatarUrl: 'https://cdn.example.org/dee.png' };
    const c = comment('c1', 'v1', { author });
    expect(toThread('v1', { ...toStoredComment(c, c.author), replies: [] }, urls).author).toEqual(author);
  });
});

describe('toCategory', () => {
  it('writes id, name and videoCount', () => {
    expect(toCategory('music', 'Music', 3)).toEqual({ id: 'music', name: 'Music', videoCount: 3 });
  });
});

describe('toPlayback', () => {
  it('lists qualities best first, once per height', () => {
    const playback = toPlayback(video('v1', { sources: [source(480), source(1080), source(720), source(240), source(720, 'https://media.example.test/alt-720.webm')] }), urls);
    expect(playback.qualities.map((q) => q.height)).toEqual([1080, 720, 480, 240]);
    for (const q of playback.qualities) expect(q.label).toBe(`${q.height}p`);
    expect(Playback.safeParse(playback).success).toBe(true);
  });

  it('lists sources best first, each with its quality', () => {
    const playback = toPlayback(video('v1', { sources: [source(480), source(1080), source(720)] }), urls);
    const heights = playback.sources.map((s) => s.height);
    expect(heights).toEqual([...heights].sort((a, b) => b - a));
    for (const s of playback.sources) expect(s.quality).toBe(`${s.height}p`);
  });

  it('defaults to the best quality at or under 720p', () => {
    expect(toPlayback(video('v1', { sources: [source(2160), source(1080), source(720), source(480)] }), urls).defaultQuality).toBe('720p');
    expect(toPlayback(video('v1', { sources: [source(1080), source(576), source(360)] }), urls).defaultQuality).toBe('576p');
    expect(toPlayback(video('v1', { sources: [source(240)] }), urls).defaultQuality).toBe('240p');
  });

  it('has empty qualities and sources and no defaultQuality without media', () => {
    const playback = toPlayback(video('v1'), urls);
    expect(playback.qualities).toEqual([]);
    expect(playback.sources).toEqual([]);
    expect('defaultQuality' in playback).toBe(false);
    expect(Playback.safeParse(playback).success).toBe(true);
  });

  it('offers the four player modes', () => {
    expect([...toPlayback(video('v1'), urls).modes].sort()).toEqual(['fullscreen', 'inline', 'pip', 'theater']);
  });

  it('reports feature availability from the video flags', () => {
    const on = toPlayback(video('v1', { features: { '3d': true, calm: true, restricted: true, captions: true } }), urls);
    expect(on['3d'].available).toBe(true);
    expect(on.calmAudio.available).toBe(true);
    expect(on.restrictedMode.available).toBe(true);
    const off = toPlayback(video('v1'), urls);
    expect(off['3d']).toEqual({ available: false });
    expect(off.calmAudio.available).toBe(false);
    expect(off.restrictedMode.available).toBe(false);
  });

  it('lists captions in catalogue order', () => {
    const captions = [{ lang: 'en', label: 'English' }, { lang: 'pt-BR', label: 'Português' }];
    expect(toPlayback(video('v1', { captions }), urls).captions).toEqual(captions);
  });

  it('serves media paths of this deployment under the base URL, and media hosts\' URLs as given', () => {
    const playback = toPlayback(video('v1', {
      sources: [source(480, '/media/sample-480.webm'), source(720, 'https://media.example.test/v1-720.webm')],
      captions: [{ lang: 'en', label: 'English', url: '/media/captions/sample.en.vtt' }, { lang: 'fr', label: 'Français' }],
    }), urls);
    expect(playback.sources.map((s) => s.url)).toEqual(['https://media.example.test/v1-720.webm', `${BASE_URL}/media/sample-480.webm`]);
    expect(playback.captions).toEqual([{ lang: 'en', label: 'English', url: `${BASE_URL}/media/captions/sample.en.vtt` }, { lang: 'fr', label: 'Français' }]);
    expect(Playback.safeParse(playback).success).toBe(true);
  });
});

describe('createUrls', () => {
  it('writes every URL under the base, without a doubled slash', () => {
    for (const base of ['https://videos.example.com', 'https://videos.example.com/', 'https://videos.example.com//']) {
      const urls = createUrls(base);
      expect(urls.base).toBe('https://videos.example.com');
      expect(urls.watch('v1')).toBe('https://videos.example.com/watch/v1');
      expect(urls.embed('v1')).toBe('https://videos.example.com/embed/v1');
      expect(urls.channel('alice')).toBe('https://videos.example.com/channels/alice');
      expect(urls.api('/v1/videos?limit=20')).toBe('https://videos.example.com/v1/videos?limit=20');
    }
  });

  it('keeps a base path', () => {
    expect(createUrls('https://example.com/videos/').watch('v1')).toBe('https://example.com/videos/watch/v1');
  });

  it('percent-encodes ids as one path segment', () => {
    const urls = createUrls('https://x.test');
    expect(urls.watch('a/b?c')).toBe('https://x.test/watch/a%2Fb%3Fc');
    expect(new URL(urls.thumbnail('a b')).pathname).toBe('/thumbnails/a%20b.svg');
  });
});

describe('avatarNameFor', () => {
  it('makes a readable slug of a display name', () => {
    expect(avatarNameFor('Viewer 2280')).toBe('viewer-2280');
    expect(avatarNameFor('  Zoë   Ünal! ')).toBe('zoe-unal');
  });

  it('falls back to viewer when nothing is left', () => {
    expect(avatarNameFor('***')).toBe('viewer');
    expect(avatarNameFor('\u4e2d\u6587')).toBe('viewer');
  });

  it('keeps slugs at most 60 characters', () => {
    expect(avatarNameFor('a'.repeat(100)).length).toBeLessThanOrEqual(60);
  });
});
