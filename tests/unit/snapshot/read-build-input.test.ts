import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { StoredVideo } from '../../../src/model/stored-video.ts';
import { readBuildInput } from '../../../src/snapshot/read-build-input.ts';
import { rawVideo, tempDirs } from '../support/fixtures.ts';
import { smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('readBuildInput: the catalogue a build is made from', () => {
  const file = () => writeCatalogueFile(join(dirs.make(), 'catalogue.db'), [
    ...smallCatalogue(),
    rawVideo('texts', { description: 'Curly “quotes”, an em dash — and 🐍, twice: “quotes” 🐍', chapters: [{ start: 0, title: 'Intro' }] }),
    rawVideo('empty', { description: '' }),
    // media types and caption languages and labels repeated across videos, a caption without a file
    rawVideo('repeats1', { sources: [{ url: 'https://media.example.test/r1.mp4', type: 'video/mp4', height: 720 }], captions: [{ lang: 'en', label: 'English' }, { lang: 'fr', label: 'Français', url: 'https://media.example.test/r1.fr.vtt' }] }),
    rawVideo('repeats2', { sources: [{ url: 'https://media.example.test/r2.mp4', type: 'video/mp4', height: 1080 }, { url: 'https://media.example.test/r2.webm', type: 'video/webm', height: 720 }], captions: [{ lang: 'en', label: 'English', url: 'https://media.example.test/r2.en.vtt' }] }),
    // every field of a video set, so that a field out of the plain record's order shows in its JSON
    rawVideo('every', {
      description: 'All of it', category: 'music', tags: ['b', 'a'], duration: 61, views: 7, likes: 3, updatedAt: '2026-01-09T10:00:00Z',
      privacy: 'unlisted', features: { '3d': true, calm: true, restricted: true, captions: true }, thumbnailUrl: 'https://img.example.test/every.jpg',
      sources: [{ url: 'https://media.example.test/every-360.mp4', type: 'video/mp4', height: 360 }],
      captions: [{ lang: 'fr', label: 'Français', url: 'https://media.example.test/every.fr.vtt' }], language: 'fr', chapters: [{ start: 0, title: 'Intro' }, { start: 30, title: 'End' }],
    }),
  ]);

  it('keeps each video as the model does, its description in the text pool, and serialises to the very bytes of the plain read', () => {
    const path = file();
    const { catalogue } = readBuildInput(path);
    const db = openCatalogue(path, { readonly: true });
    try {
      const plain = readCatalogue(db);
      // the model data's lines and the pages' input keys are JSON of these records: a byte of difference would change every snapshot id
      expect(JSON.stringify(catalogue)).toBe(JSON.stringify(plain));
      expect(catalogue.videos.map((v) => v.description)).toEqual(plain.videos.map((v) => v.description));
    } finally {
      db.close();
    }
    for (const v of catalogue.videos) expect(v).toBeInstanceOf(StoredVideo);
    const every = JSON.parse(JSON.stringify(catalogue.videos.find((v) => v.id === 'every'))) as Record<string, unknown>;
    expect(Object.keys(every)).toEqual(['id', 'channel', 'title', 'description', 'category', 'tags', 'duration', 'views', 'likes', 'publishedAt',
      'updatedAt', 'privacy', 'features', 'thumbnailUrl', 'sources', 'captions', 'language', 'chapters']);
    const texts = catalogue.videos.find((v) => v.id === 'texts') as StoredVideo;
    expect(Buffer.from(texts.descriptionBytes!).toString('utf8')).toBe('Curly “quotes”, an em dash — and 🐍, twice: “quotes” 🐍');
    expect(catalogue.videos.find((v) => v.id === 'empty')!.description).toBeUndefined();
    expect(JSON.stringify(catalogue)).not.toContain('TOPSECRET');
  });
});
