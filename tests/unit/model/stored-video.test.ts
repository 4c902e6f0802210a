// src/model/stored-video.ts: the record the model keeps, its description in the text pool.
import { describe, expect, it } from 'vitest';
import type { PublicVideo } from '../../../src/catalogue/public-catalogue.ts';
import { StoredVideo, TextPool, VIDEO_FIELDS } from '../../../src/model/stored-video.ts';
import { video } from '../support/fixtures.ts';

/** A record with a value in every field, the description with characters past U+00FF and past U+FFFF. */
const full: PublicVideo = video('v1', {
  description: 'Talk “about” naïve — parsing 🐍\nline two',
  category: 'talks',
  tags: ['python', 'parsing'],
  duration: 1234,
  updatedAt: '2026-02-01T00:00:00Z',
  privacy: 'unlisted',
  features: { '3d': true, calm: false, restricted: true, captions: true },
  thumbnailUrl: 'https://img.example.test/v1.jpg',
  sources: [{ url: '/media/v1-720.mp4', type: 'video/mp4', height: 720 }],
  captions: [{ lang: 'en', label: 'English', url: '/media/v1.en.vtt' }],
  language: 'eng',
  chapters: [{ start: 0, title: 'Start' }, { start: 60, title: 'Middle' }],
});

describe('StoredVideo', () => {
  it('keeps every field of the record, the description read back from the pool', () => {
    for (const field of VIDEO_FIELDS) expect(full[field], field).not.toBeUndefined();
    const stored = new StoredVideo(full, new TextPool());
    for (const field of VIDEO_FIELDS) expect(stored[field], field).toEqual(full[field]);
    expect(JSON.parse(JSON.stringify(stored))).toEqual(full);
  });

  it('keeps an absent description absent and an empty one empty', () => {
    const pool = new TextPool(0);
    const none = new StoredVideo(video('a'), pool);
    expect(none.description).toBeUndefined();
    expect('description' in JSON.parse(JSON.stringify(none))).toBe(false);
    expect(new StoredVideo(video('b', { description: '' }), pool).description).toBe('');
  });

  it('reads each description of a shared pool back whole', () => {
    const texts = ['first “one”', 'ascii only', 'é', '🐍🐍', ''];
    const pool = new TextPool();
    const stored = texts.map((description, i) => new StoredVideo(video(`v${i}`, { description }), pool));
    expect(stored.map((s) => s.description)).toEqual(texts);
  });

  it('reads every text back whole whatever the size of the pool\'s blocks, a text never split across two', () => {
    const texts = ['first “one”', 'ascii only', 'é', '🐍🐍', '', 'a longer text than a small block holds'];
    for (const blockBytes of [1, 4, 11, 16, 1 << 20]) {
      const pool = new TextPool(blockBytes);
      const ranges = texts.map((t) => pool.add(t));
      ranges.forEach((r, i) => {
        expect(r.to - r.from).toBe(Buffer.byteLength(texts[i]!));
        expect(r.to).toBeLessThanOrEqual(r.bytes.length);
        expect(r.bytes.toString('utf8', r.from, r.to)).toBe(texts[i]);
      });
      const stored = texts.map((description, i) => new StoredVideo(video(`v${i}`, { description }), pool));
      expect(stored.map((s) => s.description)).toEqual(texts);
    }
  });

  it('fills a block before it starts another, and starts one only when the next text does not fit', () => {
    const pool = new TextPool(8);
    const a = pool.add('abcd');
    const b = pool.add('efgh');
    const c = pool.add('ij');
    expect(b.bytes).toBe(a.bytes);
    expect(c.bytes).not.toBe(a.bytes);
    expect(a.bytes.length).toBe(8);
  });
});
