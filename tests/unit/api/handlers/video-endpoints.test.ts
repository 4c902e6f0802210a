// The single-video endpoints, which share lookup.ts: get-video, video-playback, video-related.
import { describe, expect, it } from 'vitest';
import { getVideo } from '../../../../src/api/handlers/get-video.ts';
import { videoPlayback } from '../../../../src/api/handlers/video-playback.ts';
import { videoRelated } from '../../../../src/api/handlers/video-related.ts';
import type { Playback, Video } from '../../../../src/model/schemas.ts';
import { catalogueOf, modelOf, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

describe('handlers/get-video.ts', () => {
  const model = modelOf(catalogueOf({ videos: [video('v1'), video('u1', { privacy: 'unlisted' })] }));

  describe('getVideo', () => {
    it('wraps the video in data', () => {
      const answer = call(getVideo, model, '', { id: 'v1' });
      expect((answer.body as { data: Video }).data).toEqual(model.videos.get('v1')!.resource);
      expect(answer.noindex).toBe(false);
    });

    it('serves an unlisted video by id, marked noindex', () => {
      const answer = call(getVideo, model, '', { id: 'u1' });
      expect((answer.body as { data: Video }).data.privacy).toBe('unlisted');
      expect(answer.noindex).toBe(true);
    });

    it('answers 404 for an unknown or private id, naming it', () => {
      const error = problemOf(() => call(getVideo, model, '', { id: 'missing-one' }));
      expect(error.status).toBe(404);
      expect(error.slug).toBe('not-found');
      expect(error.message).toContain('missing-one');
    });

    it('ignores unknown query parameters', () => {
      expect(call(getVideo, model, 'foo=1&foo=2', { id: 'v1' }).body).toEqual({ data: model.videos.get('v1')!.resource });
    });

    it('has a canonical URL with the id percent-encoded and no query', () => {
      expect(getVideo.canonical(getVideo.parse({ id: 'v1' }, new URLSearchParams('x=1')))).toBe('/v1/videos/v1');
    });
  });
});

describe('handlers/video-playback.ts', () => {
  const model = modelOf(catalogueOf({
    videos: [
      video('media', { sources: [{ url: 'https://m.example/a-480.mp4', type: 'video/mp4', height: 480 }, { url: 'https://m.example/a-1080.mp4', type: 'video/mp4', height: 1080 }] }),
      video('bare'),
      video('u1', { privacy: 'unlisted' }),
    ],
  }));
  const playback = (id: string) => (call(videoPlayback, model, '', { id }).body as { data: Playback }).data;

  describe('videoPlayback', () => {
    it('answers the playback of a video with media', () => {
      const p = playback('media');
      expect(p.videoId).toBe('media');
      expect(p.qualities.map((q) => q.height)).toEqual([1080, 480]);
      expect(p.defaultQuality).toBe('480p');
    });

    it('answers empty qualities and no defaultQuality for a video without media', () => {
      const p = playback('bare');
      expect(p.qualities).toEqual([]);
      expect(p.sources).toEqual([]);
      expect('defaultQuality' in p).toBe(false);
    });

    it('serves an unlisted video, marked noindex', () => {
      expect(call(videoPlayback, model, '', { id: 'u1' }).noindex).toBe(true);
    });

    it('answers 404 for an unknown id', () => {
      expect(problemOf(() => playback('nope')).status).toBe(404);
    });
  });
});

describe('handlers/video-related.ts', () => {
  const model = modelOf(catalogueOf({
    videos: [
      video('a', { tags: ['x'] }), video('b', { tags: ['x'] }), video('c', { tags: ['x'] }),
      video('u', { tags: ['x'], privacy: 'unlisted' }),
    ],
  }));

  describe('videoRelated', () => {
    it('lists the related public videos computed at build time, never the video itself', () => {
      const page = pageOf<Video>(call(videoRelated, model, '', { id: 'a' }));
      expect(page.data.map((v) => v.id)).toEqual(Array.from(model.videos.get('a')!.related, (j) => model.entries[j]!.video.id));
      expect(page.data.map((v) => v.id).sort()).toEqual(['b', 'c']);
      expect(page.data.map((v) => v.id)).not.toContain('a');
      expect(page.data.map((v) => v.id)).not.toContain('u');
    });

    it('answers related videos for an unlisted video', () => {
      expect(pageOf<Video>(call(videoRelated, model, '', { id: 'u' })).data.map((v) => v.id).sort()).toEqual(['a', 'b', 'c']);
    });

    it('pages with limit', () => {
      const page = pageOf<Video>(call(videoRelated, model, 'limit=1', { id: 'a' }));
      expect(page.data).toHaveLength(1);
      expect(page.paging.nextCursor).not.toBeNull();
    });

    it('answers 404 for an unknown id', () => {
      expect(problemOf(() => call(videoRelated, model, '', { id: 'nope' })).status).toBe(404);
    });
  });
});
