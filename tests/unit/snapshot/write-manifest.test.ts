// The manifest written (src/snapshot/write-manifest.ts): its text is manifest.ts manifestLinesOf's,
// byte for byte, whether each page's line is made from its entry or, for the pages of the shards the
// page writer hard-linked (their entries are the served ones), copied from the served manifest's
// bytes; the snapshot id is its SHA-256's start. Lines are copied only where the key is the served
// page's and the first line's missing comma is respected.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../../src/snapshot/layout.ts';
import { manifestLinesOf, SNAPSHOT_ID_LENGTH, type FileRecord, type PageEntry } from '../../../src/snapshot/manifest.ts';
import { PageTable } from '../../../src/snapshot/page-table.ts';
import { startOpenPrevious, type PreviousSnapshot } from '../../../src/snapshot/previous-snapshot.ts';
import { inServedOrder, manifestPieces, writeManifest, type ServedManifest } from '../../../src/snapshot/write-manifest.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const SHARDS = 4;
const FILES: Record<string, FileRecord> = { 'model.ndjson': { size: 10, sha256: 'a'.repeat(64) } };

/** Pages as the page writer makes them, over SHARDS shards, keys of several forms. */
function pagesOf(count: number): Map<string, PageEntry> {
  return new Map(Array.from({ length: count }, (_, i): [string, PageEntry] => {
    const key = `/v1/videos/${String(i).padStart(4, '0')}${i % 7 === 0 ? 'é' : ''}${i % 11 === 0 ? '"q\\' : ''}`;
    const entry: { -readonly [K in keyof PageEntry]: PageEntry[K] } = { etag: `"${i.toString(16)}"`, body: [i * 100, 100, i, i % SHARDS] };
    if (i % 5 === 0) entry.link = `<https://x.test${key}?c=1>; rel="next"`;
    if (i % 4 === 0) entry.noindex = true;
    if (i % 3 === 0) entry.br = [i * 10, 10, 7, i % SHARDS];
    return [key, entry];
  }));
}

async function served(pages: Map<string, PageEntry>): Promise<{ snapshot: PreviousSnapshot; table: PageTable }> {
  const dir = dirs.make();
  const { id } = await writeManifest(join(dir, MANIFEST_FILE), { baseUrl: 'https://x.test', videos: 1, files: FILES, entries: pages });
  const snapshot = await startOpenPrevious(dir, id).opened();
  if (typeof snapshot === 'string') throw new Error(snapshot);
  if (typeof snapshot.files !== 'string') snapshot.files.close();
  return { snapshot, table: snapshot.pages as PageTable };
}

/** Writes the manifest of `pages` with the served lines; its text, and how many pieces were copied bytes. */
async function written(pages: ReadonlyMap<string, PageEntry>, source: ServedManifest): Promise<{ text: string; copied: number; id: string }> {
  const dir = dirs.make();
  const file = join(dir, MANIFEST_FILE);
  const { id, head } = await writeManifest(file, { baseUrl: 'https://x.test', videos: 1, files: FILES, entries: pages, served: source });
  const keys = [...pages.keys()].sort();
  const pieces = source.sameKeys ? inServedOrder(head, pages, source) : manifestPieces(head, keys, pages, source);
  const copied = [...pieces].filter((piece) => typeof piece !== 'string').length;
  const bytes = readFileSync(file);
  expect(id).toBe(createHash('sha256').update(bytes).digest('hex').slice(0, SNAPSHOT_ID_LENGTH));
  // the text manifestLinesOf makes of every entry
  expect(bytes.toString('utf8')).toBe([...manifestLinesOf(head, keys.map((k): [string, PageEntry] => [k, pages.get(k)!]))].join(''));
  return { text: bytes.toString('utf8'), copied, id };
}

const linkedOf = (shards: number[]) => new Set(shards);

describe('writeManifest', () => {
  it('copies every line of a build that linked every shard, in one range, and writes the same bytes', async () => {
    const pages = pagesOf(400);
    const { snapshot, table } = await served(pages);
    try {
      // the writer's entries of linked shards are the served ones
      const now = new Map([...pages.keys()].map((key) => [key, table.get(key)!]));
      const { copied, id } = await written(now, { pages: table, lines: snapshot.manifestLines!, linked: linkedOf([0, 1, 2, 3]), sameKeys: false });
      expect(copied).toBe(1);
      expect(id).toBe(snapshot.id);
    } finally {
      snapshot.manifestLines!.close();
    }
  });

  it('makes the lines of shards not linked, of pages added and before a page removed, and copies the rest: the text manifestLinesOf writes', async () => {
    const pages = pagesOf(400);
    const { snapshot, table } = await served(pages);
    try {
      const now = new Map<string, PageEntry>();
      for (const key of pages.keys()) {
        const entry = table.get(key)!;
        // shard 1 was written: its pages have new ranges
        now.set(key, entry.body[3] === 1 ? { ...entry, body: [entry.body[0] + 1, entry.body[1], entry.body[2], 1] } : entry);
      }
      now.delete([...pages.keys()][200]!); // a page gone (of a shard then written: its entries are new)
      now.set('/a first page', { etag: '"n"', body: [0, 5, 5, 2] }); // a page added, first in key order, in a written shard
      now.set('/v1/videos/0100x', { etag: '"m"', body: [0, 5, 5, 1] });
      const linked = linkedOf([0, 3]);
      const { copied } = await written(now, { pages: table, lines: snapshot.manifestLines!, linked, sameKeys: false });
      expect(copied).toBeGreaterThan(10);
    } finally {
      snapshot.manifestLines!.close();
    }
  });

  it('takes no served line at another place than the first for the first page, nor one whose key is not the page\'s', async () => {
    const pages = pagesOf(40);
    const { snapshot, table } = await served(pages);
    try {
      // the served first page gone (its shard, 0, written): the new first page is the served second, whose line has a comma
      const now = new Map([...pages.keys()].slice(1).map((key) => [key, table.get(key)!]));
      const first = await written(now, { pages: table, lines: snapshot.manifestLines!, linked: linkedOf([1, 2, 3]), sameKeys: false });
      expect(first.copied).toBeGreaterThan(0);
      // a page of a linked shard the served manifest does not have (the writer never makes one, but it is not trusted): made, the same text
      const added = new Map(now);
      added.set('/v1/videos/0005zz', { etag: '"z"', body: [0, 1, 1, 1] });
      const second = await written(added, { pages: table, lines: snapshot.manifestLines!, linked: linkedOf([1, 2, 3]), sameKeys: false });
      expect(second.copied).toBeGreaterThan(first.copied);
    } finally {
      snapshot.manifestLines!.close();
    }
  });

  it('walks the served order when the pages are the served ones (the same keys): shards not linked made, the rest copied, the same bytes', async () => {
    const pages = pagesOf(400);
    const { snapshot, table } = await served(pages);
    try {
      const whole = new Map([...pages.keys()].map((key) => [key, table.get(key)!]));
      const all = await written(whole, { pages: table, lines: snapshot.manifestLines!, linked: linkedOf([0, 1, 2, 3]), sameKeys: true });
      expect(all.copied).toBe(1);
      expect(all.id).toBe(snapshot.id);
      const now = new Map<string, PageEntry>();
      for (const key of pages.keys()) {
        const entry = table.get(key)!;
        // shards 0 and 2 written: their pages have new ranges and ETags
        now.set(key, entry.body[3] === 0 || entry.body[3] === 2 ? { ...entry, etag: `${entry.etag}x`, body: [entry.body[0] + 3, entry.body[1], entry.body[2], entry.body[3]] } : entry);
      }
      const some = await written(now, { pages: table, lines: snapshot.manifestLines!, linked: linkedOf([1, 3]), sameKeys: true });
      expect(some.copied).toBeGreaterThan(10);
    } finally {
      snapshot.manifestLines!.close();
    }
  });
});
