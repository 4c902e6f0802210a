// The served snapshot as an incremental build opens it (src/snapshot/previous-snapshot.ts): every page
// of its manifest, parsed from the file's bytes a chunk at a time, exactly as written, whatever
// falls on a chunk's edge; a manifest that is not one is refused with the reason.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../../src/snapshot/layout.ts';
import { MANIFEST_FORMAT, manifestLines, SNAPSHOT_ID_LENGTH, type Manifest, type PageEntry } from '../../../src/snapshot/manifest.ts';
import { openPreviousSnapshot } from '../../../src/snapshot/previous-snapshot.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function writeManifestOf(dir: string, pages: Record<string, PageEntry>): string {
  const manifest = { format: MANIFEST_FORMAT, apiVersion: '1', baseUrl: 'https://videos.example.test', counts: {}, files: {}, pages } as Manifest;
  const text = [...manifestLines(manifest)].join('');
  writeFileSync(join(dir, MANIFEST_FILE), text);
  return text;
}

/** The id a snapshot of this manifest text has: the start of its SHA-256. */
const idOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, SNAPSHOT_ID_LENGTH);

describe('openPreviousSnapshot', () => {
  it('reads every page of a manifest of many megabytes, keys that need escapes or are not ASCII included', () => {
    const dir = dirs.make();
    const pages: Record<string, PageEntry> = {};
    // about 6 MB: more than one of the 4 MB chunks the file is read in, lines across their edges
    for (let i = 0; i < 40_000; i++) {
      const key = `/v1/videos/${String(i).padStart(6, '0')}${i % 7 === 0 ? 'é\u{1F600}' : ''}${i % 11 === 0 ? '"q\\' : ''}?${'x'.repeat(i % 97)}`;
      pages[key] = { etag: `"${i.toString(36)}"`, body: [i * 1000, 1000, i, i % 8], ...(i % 3 === 0 ? { br: [i, 10, 7, i % 8], gzip: [i, 12, 8, i % 8] } : {}), ...(i % 5 === 0 ? { link: `<https://videos.example.test${key}>; rel="next"`, noindex: true as const } : {}) };
    }
    const sorted = Object.fromEntries(Object.entries(pages).sort(([a], [b]) => (a < b ? -1 : 1)));
    const text = writeManifestOf(dir, sorted);
    expect(text.length).toBeGreaterThan(4 << 20);
    const opened = openPreviousSnapshot(dir, idOf(text));
    if (typeof opened === 'string') throw new Error(opened);
    expect(opened.pages.size).toBe(40_000);
    expect(Object.fromEntries(opened.pages)).toEqual(sorted);
    expect(opened.head.baseUrl).toBe('https://videos.example.test');
    // no page files recorded: nothing to copy from, and it says why
    expect(opened.files).toBe('its manifest records no page shards');
  });

  it('reads a line longer than the 4 MB it reads at a time (its window grows), between others', () => {
    const dir = dirs.make();
    const long = `/v1/videos?q=${'y'.repeat(9 << 20)}`;
    const pages: Record<string, PageEntry> = { '/a': { etag: '"a"', body: [0, 1, 2, 0] }, [long]: { etag: '"l"', body: [1, 1, 3, 0], link: `<${long}>` }, '/z': { etag: '"z"', body: [2, 1, 4, 1] } };
    const sorted = Object.fromEntries(Object.entries(pages).sort(([a], [b]) => (a < b ? -1 : 1)));
    const text = writeManifestOf(dir, sorted);
    const opened = openPreviousSnapshot(dir, idOf(text));
    if (typeof opened === 'string') throw new Error(opened);
    expect(Object.fromEntries(opened.pages)).toEqual(sorted);
  });

  it('says why it cannot read a manifest that is cut short, damaged or of another format', () => {
    const dir = dirs.make();
    const text = writeManifestOf(dir, { '/a': { etag: '"a"', body: [0, 1, 2, 0] }, '/b': { etag: '"b"', body: [1, 1, 3, 0] } });
    writeFileSync(join(dir, MANIFEST_FILE), text.replace('"/b":{', '"/b":['));
    expect(openPreviousSnapshot(dir, 'x')).toMatch(/^its manifest cannot be read/);
    writeFileSync(join(dir, MANIFEST_FILE), text.replace('\n,"/b"', '\n,/b'));
    expect(openPreviousSnapshot(dir, 'x')).toMatch(/^its manifest cannot be read \(a manifest line holds no page\)/);
    writeFileSync(join(dir, MANIFEST_FILE), `${text}\n,"/c":{"etag":"c","body":[0,1,2]}`);
    expect(openPreviousSnapshot(dir, 'x')).toMatch(/goes on after its closing line/);
    writeFileSync(join(dir, MANIFEST_FILE), text.replace(`"format":${MANIFEST_FORMAT}`, '"format":1'));
    expect(openPreviousSnapshot(dir, 'x')).toBe(`its manifest has format 1, not ${MANIFEST_FORMAT}`);
    writeFileSync(join(dir, MANIFEST_FILE), '');
    expect(openPreviousSnapshot(dir, 'x')).toBe('its manifest is empty');
    expect(openPreviousSnapshot(dirs.make(), 'x')).toBe('it has no manifest');
  });
});
