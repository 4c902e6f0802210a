// The served snapshot's pages as a build holds them (src/snapshot/page-table.ts): a page table
// packed from the manifest answers every key with the entry the manifest holds, rebuilt so that its
// JSON is the manifest line's own text (the new manifest is written from it, byte for byte), and
// an entry of another form is answered as JSON.parse made it. Read on a worker thread
// (previous-snapshot.ts startOpenPrevious), it is the same table.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../../src/snapshot/layout.ts';
import { MANIFEST_FORMAT, manifestLines, SNAPSHOT_ID_LENGTH, type Manifest, type PageEntry } from '../../../src/snapshot/manifest.ts';
import { diffPages } from '../../../src/snapshot/diff-manifests.ts';
import { parsePageLine } from '../../../src/snapshot/page-index.ts';
import { createPagePacker, PageTable } from '../../../src/snapshot/page-table.ts';
import { openPreviousSnapshot, startOpenPrevious } from '../../../src/snapshot/previous-snapshot.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Pages as the page writer makes them (etag, body, link, noindex, br, gzip), keys of every kind. */
function writerPages(count: number): [string, PageEntry][] {
  return Array.from({ length: count }, (_, i): [string, PageEntry] => {
    const key = `/v1/videos/${i}${i % 7 === 0 ? 'é\u{1F600}' : ''}${i % 11 === 0 ? '"q\\' : ''}?${'x'.repeat(i % 13)}`;
    const entry: { -readonly [K in keyof PageEntry]: PageEntry[K] } = { etag: `"${i.toString(16)}-${(i * 31).toString(16)}"`, body: [i * 4_000_000_000, 1000 + i, 0xffffffff - i, i % 9] };
    if (i % 5 === 0) entry.link = `<https://videos.example.test${key}>; rel="next"`;
    if (i % 4 === 0) entry.noindex = true;
    if (i % 3 === 0) entry.br = [i, 10, 7, i % 9];
    if (i % 3 === 0 || i % 8 === 0) entry.gzip = [i * 2, 12, 0, i % 9];
    return [key, entry];
  });
}

const tableOf = (pages: Iterable<[string, PageEntry]>) => {
  const packer = createPagePacker();
  for (const [key, entry] of pages) packer.add(key, entry);
  return new PageTable(packer.finish());
};

describe('PageTable', () => {
  it('answers every key with its entry, whose JSON is the text it was packed from', () => {
    const pages = writerPages(5_000);
    const table = tableOf(pages);
    expect(table.size).toBe(5_000);
    for (const [key, entry] of pages) {
      expect(table.has(key)).toBe(true);
      expect(JSON.stringify(table.get(key))).toBe(JSON.stringify(entry));
    }
    expect([...table.keys()]).toEqual(pages.map(([key]) => key));
    expect(JSON.stringify([...table])).toBe(JSON.stringify(pages));
    expect(table.get('/v1/videos/5000')).toBeUndefined();
    expect(table.has('/v1/videos/1?')).toBe(false); // a key's prefix is not the key
    expect(table.get('')).toBeUndefined();
  });

  it('answers the same in any order of look-ups: beside the last page found, backwards, at random, and keys it lacks', () => {
    const pages = writerPages(3_000);
    const table = tableOf(pages);
    const expectAll = (order: readonly number[]) => {
      for (const i of order) {
        const [key, entry] = pages[i]!;
        expect(JSON.stringify(table.get(key))).toBe(JSON.stringify(entry));
        // a key next to a found page's but not in the table is still not found
        expect(table.get(`${key}#`)).toBeUndefined();
      }
    };
    const ordered = pages.map((_, i) => i);
    expectAll(ordered);
    expectAll([...ordered].reverse());
    // a video's three pages in plan order (page, playback, comments) against key order (page, comments, playback)
    expectAll(ordered.map((i) => (i % 3 === 1 ? i + 1 : i % 3 === 2 ? i - 1 : i)).filter((i) => i < pages.length));
    expectAll(ordered.map((i) => (i * 1_237) % pages.length));
  });

  it('keeps an entry of another form as JSON.parse makes it: other order, other fields, escapes', () => {
    const odd: [string, PageEntry][] = [
      ['/a', { body: [0, 1, 2, 0], etag: '"a"' }],
      ['/b', { etag: '"b"', body: [1, 1, 3, 0], br: [0, 1, 1, 0], link: '<x>' }],
      ['/c', { etag: '"c"', body: [1, 1, 3, 0], extra: 1 } as unknown as PageEntry],
      ['/d', { etag: '"d"', body: [1.5, 1, 3, 0] }],
      ['/e', { etag: '"e"', body: [1, 1, 3, 0], noindex: false } as unknown as PageEntry],
    ];
    const table = tableOf([...odd, ...writerPages(10)]);
    for (const [key, entry] of odd) expect(JSON.stringify(table.get(key))).toBe(JSON.stringify(entry));
  });

  it('gives each page\'s ETag without its entry, and diffPages lists the same URLs as with a Map', () => {
    const pages: [string, PageEntry][] = [...writerPages(300), ['/odd', { body: [0, 1, 2, 0], etag: '"odd"' }]];
    const table = tableOf(pages);
    for (const [key, entry] of pages) {
      expect(table.etagOf(key)).toBe(entry.etag);
      expect(table.sameEtag(key, entry.etag)).toBe(true);
      expect(table.sameEtag(key, `${entry.etag.slice(0, -2)}x"`)).toBe(false);
      expect(table.sameEtag(key, `${entry.etag}é`)).toBe(false);
    }
    expect(table.etagOf('/none')).toBeUndefined();
    expect(table.sameEtag('/none', '"a"')).toBeUndefined();
    const after = new Map(pages.slice(5).map(([key, entry], i): [string, PageEntry] => [key, i % 50 === 0 ? { ...entry, etag: '"new"' } : entry]));
    after.set('/added', { etag: '"added"', body: [0, 1, 2, 0] });
    const changed = diffPages(table, after);
    expect(changed).toEqual(diffPages(new Map(pages), after));
    expect(changed).toHaveLength(5 + 6 + 1);
    // nothing removed: before's keys are not walked, and the same list comes out
    const all = new Map([...pages, ['/added', { etag: '"added"', body: [0, 1, 2, 0] }] as [string, PageEntry]]);
    expect(diffPages(table, all)).toEqual(['/added']);
    expect(diffPages(undefined, all)).toEqual([...all.keys()].sort());
  });

  it('diffPages asks nothing of a page carried from the previous snapshot, and still lists the changed, added and removed ones', () => {
    const pages = writerPages(300);
    const asked: string[] = [];
    const before = new Map(pages);
    const spy = { size: before.size, get: (key: string) => { asked.push(key); return before.get(key); }, keys: () => before.keys() } as unknown as ReadonlyMap<string, PageEntry>;
    // every page but the first ten carried; one of those changed, one added; the last one removed
    const after = new Map(pages.slice(0, -1).map(([key, entry], i): [string, PageEntry] => [key, i === 3 ? { ...entry, etag: '"new"' } : entry]));
    after.set('/added', { etag: '"added"', body: [0, 1, 2, 0] });
    const carried = new Set([...after.values()].slice(10, -1));
    const changed = diffPages(spy, after, (entry) => carried.has(entry));
    expect(changed).toEqual(diffPages(tableOf(pages), after));
    expect(changed).toEqual([pages[3]![0], '/added', pages.at(-1)![0]].sort());
    expect(asked.sort()).toEqual([...pages.slice(0, 10).map(([key]) => key), '/added'].sort());
  });

  it('packs a line of the page writer\'s form from its bytes into the entry JSON.parse makes of it, and declines any other line, adding nothing', () => {
    const pages = writerPages(2_000);
    const lineOf = ([key, entry]: [string, PageEntry]) => Buffer.from(`,${JSON.stringify(key)}:${JSON.stringify(entry)}`);
    const fromBytes = createPagePacker();
    const fromJson = createPagePacker();
    let fast = 0;
    for (const page of pages) {
      const line = lineOf(page);
      if (fromBytes.addLine(line, 0, line.length)) fast++;
      else fromBytes.add(...parsePageLine(line, 0, line.length));
      fromJson.add(...parsePageLine(line, 0, line.length));
    }
    // only the keys with characters beyond ASCII were parsed as JSON
    expect(fast).toBe(pages.filter(([key]) => /^[\x20-\x7e]*$/.test(key)).length);
    expect(JSON.stringify([...new PageTable(fromBytes.finish())])).toBe(JSON.stringify([...new PageTable(fromJson.finish())]));
    const declined = [
      '"/a\\nb":{"etag":"\\"1\\"","body":[0,1,2,0]}', // an escape other than \" and \\
      '"/a":{"etag":"\\"1\\"","body":[00,1,2,0]}', // a leading zero (not JSON)
      '"/a":{"etag":"\\"1\\"","body":[-1,1,2,0]}',
      '"/a":{"etag":"\\"1\\"","body":[1.5,1,2,0]}',
      '"/a":{"etag":"\\"1\\"","body":[0,4294967296,2,0]}',
      '"/a":{"etag":"\\"1\\"","body":[0,1,2]}',
      '"/a":{"etag":"\\"1\\"","body":[0,1,2,0],"extra":1}',
      '"/a":{"etag":"\\"1\\"","body":[0,1,2,0],"gzip":[0,1,2,0],"br":[0,1,2,0]}', // another order
      '"/a":{"etag":"\\"1\\"","body":[0,1,2,0]}}',
      '"/a":{"etag":"\\"1\\"","body":[0,1,2,0]',
      '"/a":{"body":[0,1,2,0],"etag":"\\"1\\""}',
    ];
    const packer = createPagePacker();
    for (const text of declined) expect(packer.addLine(Buffer.from(text), 0, text.length), text).toBe(false);
    const good = ',"/a\\"b\\\\":{"etag":"\\"1\\"","body":[0,1,2,0],"link":"<x>; rel=\\"next\\"","noindex":true,"gzip":[123456789012345,4294967295,0,1]}';
    expect(packer.addLine(Buffer.from(`xx${good}yy`), 2, 2 + good.length)).toBe(true);
    const table = new PageTable(packer.finish());
    expect(table.size).toBe(1);
    expect(JSON.stringify([...table])).toBe(JSON.stringify(Object.entries(JSON.parse(`{${good.slice(1)}}`) as Record<string, PageEntry>)));
  });

  it('refuses a key named twice', () => {
    const [page] = writerPages(1);
    const packer = createPagePacker();
    packer.add(...page!);
    packer.add(...page!);
    expect(() => packer.finish()).toThrow(/names the page .* twice/);
  });
});

describe('startOpenPrevious', () => {
  const manifestOf = (dir: string, pages: [string, PageEntry][]) => {
    const manifest = { format: MANIFEST_FORMAT, apiVersion: '1', baseUrl: 'https://videos.example.test', counts: {}, files: {}, pages: Object.fromEntries(pages.sort(([a], [b]) => (a < b ? -1 : 1))) } as Manifest;
    const text = [...manifestLines(manifest)].join('');
    writeFileSync(join(dir, MANIFEST_FILE), text);
    return createHash('sha256').update(text).digest('hex').slice(0, SNAPSHOT_ID_LENGTH);
  };

  it('reads the manifest on a worker thread into the table read here', async () => {
    const dir = dirs.make();
    const id = manifestOf(dir, writerPages(3_000));
    const opening = startOpenPrevious(dir, id);
    const there = await opening.opened();
    const here = openPreviousSnapshot(dir, id);
    if (typeof there === 'string' || typeof here === 'string') throw new Error(String(there));
    expect(there.pages.size).toBe(3_000);
    expect(JSON.stringify([...there.pages])).toBe(JSON.stringify([...here.pages]));
    expect(there.head).toEqual(here.head);
  });

  it('refuses, with the reason, a manifest whose bytes are not the snapshot id\'s', async () => {
    const dir = dirs.make();
    const id = manifestOf(dir, writerPages(50));
    const other = id.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(await startOpenPrevious(dir, other).opened()).toMatch(/does not match the snapshot's id/);
    expect(openPreviousSnapshot(dir, other)).toMatch(/does not match the snapshot's id/);
    expect(await startOpenPrevious(dirs.make(), id).opened()).toBe('it has no manifest');
  });
});
