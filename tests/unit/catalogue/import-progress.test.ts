// The import's progress line (docs/catalogue.md; README, "Operator commands": "progress with
// percent, rate and ETA") tells the share of the file whose records are counted, not of the bytes
// read ahead of them: a gzipped file is read off the disk megabytes before it is decompressed and
// validated, and pyvideo's 8 MB file said "100% ... ETA 0.0 s" at 22,584 of 55,105 records, with
// half the import to go.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCatalogueFile } from '../../../src/catalogue/import-catalogue.ts';
import { rawChannel, rawVideo, tempDirs, writeNdjsonFile, type Raw } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('import progress', () => {
  it.each([false, true])('shows a percent no further than the records counted (gzipped: %s)', async (gzip) => {
    const dir = dirs.make();
    // about 12 MB of lines of hex that compress by half: many of the reader's 1 MB blocks
    const raws: Raw[] = [rawChannel('alice')];
    for (let i = 0; i < 6000; i++) raws.push(rawVideo(`v${i}`, { description: randomBytes(1000).toString('hex') }));
    const file = writeNdjsonFile(dir, gzip ? 'c.ndjson.gz' : 'c.ndjson', raws, gzip);
    const lines: string[] = [];
    await importCatalogueFile(join(dir, 'catalogue.db'), file, { workers: false, progressEvery: 0, onProgress: (m) => lines.push(m) });
    const shown = lines.map((m) => /^(\d+)% ([\d,]+) records/.exec(m)).filter((m) => m !== null).map((m) => ({ percent: Number(m[1]), records: Number(m[2]!.replace(/,/g, '')) }));
    expect(shown.length).toBeGreaterThan(5);
    for (const { percent, records } of shown.slice(0, -1)) {
      // every record is about as long, so the records counted are the share done; a block's slack
      expect(percent, `${records} records`).toBeLessThanOrEqual(Math.ceil((records / raws.length) * 100) + 10);
    }
    expect(shown.at(-1)).toEqual({ percent: 100, records: raws.length });
  });
});
