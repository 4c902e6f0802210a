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
    const texts = catalogue.videos.find((v) => v.id === 'texts') as StoredVideo;
    expect(Buffer.from(texts.descriptionBytes!).toString('utf8')).toBe('Curly “quotes”, an em dash — and 🐍, twice: “quotes” 🐍');
    expect(catalogue.videos.find((v) => v.id === 'empty')!.description).toBeUndefined();
    expect(JSON.stringify(catalogue)).not.toContain('TOPSECRET');
  });
});
