// src/snapshot/page-writer.ts and the worker pool that compresses for it (src/snapshot/compress-pool.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_COMPRESSIBLE } from '../../../src/http/encoding.ts';
import { type Rendered } from '../../../src/api/respond.ts';
import { BATCH_PAGES, createCompressPool, type Variants } from '../../../src/snapshot/compress-pool.ts';
import { CHUNK_BYTES } from '../../../src/snapshot/page-arena.ts';
import { MANIFEST_FILE, pageFileName, pageFileNames } from '../../../src/snapshot/layout.ts';
import { createPageWriter, type PageWriter } from '../../../src/snapshot/page-writer.ts';
import { shardOf } from '../../../src/snapshot/page-shards.ts';
import { openPreviousSnapshot, startOpenPrevious, type PreviousSnapshot, type ServedManifestLines } from '../../../src/snapshot/previous-snapshot.ts';
import { writeManifest } from '../../../src/snapshot/write-manifest.ts';
import { diffPages } from '../../../src/snapshot/diff-manifests.ts';
import type { PageTable } from '../../../src/snapshot/page-table.ts';
import { pageReader } from '../support/snapshots.ts';
import { tempDirs } from '../support/fixtures.ts';
import { etagOf } from '../../../src/http/etag.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const rendered = (text: string, headers: Record<string, string> = {}): Rendered => {
  const body = Buffer.from(text);
  return { status: 200, body, headers: { etag: etagOf(body), ...headers } };
};
const reader = pageReader;
const SHARDS = 4;

describe('createPageWriter', () => {
  it('writes every body, and br and gzip variants of large ones, where the entries say', async () => {
    const dir = dirs.make();
    const writer = createPageWriter(dir, { shards: SHARDS });
    const pages = new Map<string, string>();
    for (let i = 0; i < 150; i++) pages.set(`/p/${i}`, JSON.stringify({ i, text: 'word '.repeat(i % 3 === 0 ? 600 : 5) }));
    for (const [key, text] of pages) writer.write(key, rendered(text));
    await writer.close();
    const body = reader(dir, 'body');
    const br = reader(dir, 'br');
    const gzip = reader(dir, 'gzip');
    for (const [key, text] of pages) {
      const entry = writer.entries.get(key)!;
      const identity = body(entry.body);
      expect(identity.toString()).toBe(text);
      expect(entry.etag).toBe(etagOf(identity));
      if (identity.length >= MIN_COMPRESSIBLE) {
        expect(brotliDecompressSync(br(entry.br!)).equals(identity)).toBe(true);
        expect(gunzipSync(gzip(entry.gzip!)).equals(identity)).toBe(true);
      } else {
        expect(entry.br).toBeUndefined();
        expect(entry.gzip).toBeUndefined();
      }
    }
    expect(writer.bytes.identity).toBe([...pages.values()].reduce((n, t) => n + Buffer.byteLength(t), 0));
  });

  it('writes thousands of small pages (many to a file\'s buffer) in order', async () => {
    const dir = dirs.make();
    const writer = createPageWriter(dir, { shards: 1 });
    const texts = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i }));
    for (const [i, text] of texts.entries()) writer.write(`/p/${i}`, { status: 200, body: Buffer.from(new Uint8Array(Buffer.from(text))), headers: { etag: etagOf(Buffer.from(text)) } });
    await writer.close();
    const body = reader(dir, 'body');
    expect(readFileSync(join(dir, pageFileName('body', 0))).toString()).toBe(texts.join(''));
    for (const [i, text] of texts.entries()) expect(body(writer.entries.get(`/p/${i}`)!.body).toString()).toBe(text);
  });

  it('keeps none of the buffers it is given: a body overwritten once written, large or small, is written as it was', async () => {
    const dir = dirs.make();
    const writer = createPageWriter(dir, { shards: 1 });
    // small pages (held in the file's buffer), compressible ones (queued for compression) and one
    // larger than a file's buffer, all from one buffer the caller overwrites for every page
    const texts = Array.from({ length: 400 }, (_, i) => JSON.stringify({ i, text: 'words '.repeat(i % 7 === 0 ? 20_000 : i % 3 === 0 ? 400 : 2) }));
    const scratch = Buffer.alloc(200_000);
    for (const [i, text] of texts.entries()) {
      const length = scratch.write(text);
      const body = scratch.subarray(0, length);
      writer.write(`/p/${i}`, { status: 200, body, headers: { etag: etagOf(body) } });
      scratch.fill(0x2a);
    }
    await writer.close();
    const [body, br, gzip] = [reader(dir, 'body'), reader(dir, 'br'), reader(dir, 'gzip')];
    for (const [i, text] of texts.entries()) {
      const entry = writer.entries.get(`/p/${i}`)!;
      expect(body(entry.body).toString()).toBe(text);
      if (text.length >= MIN_COMPRESSIBLE) {
        expect(brotliDecompressSync(br(entry.br!)).toString()).toBe(text);
        expect(gunzipSync(gzip(entry.gzip!)).toString()).toBe(text);
      }
    }
  });

  it('records the Link and noindex headers of a page', async () => {
    const writer = createPageWriter(dirs.make(), { shards: SHARDS });
    writer.write('/a', rendered('{}', { link: '<https://x.test/a?cursor=c>; rel="next"', 'x-robots-tag': 'noindex' }));
    writer.write('/b', rendered('{}'));
    await writer.close();
    expect(writer.entries.get('/a')).toMatchObject({ link: '<https://x.test/a?cursor=c>; rel="next"', noindex: true });
    expect(writer.entries.get('/b')!.link).toBeUndefined();
    expect(writer.entries.get('/b')!.noindex).toBeUndefined();
  });

  it('refuses a page rendered twice', async () => {
    const writer = createPageWriter(dirs.make(), { shards: SHARDS });
    writer.write('/a', rendered('{}'));
    expect(() => writer.write('/a', rendered('{}'))).toThrow(/twice/);
    await writer.abort();
  });

  it('writes the same bytes for the same pages', async () => {
    const write = async () => {
      const dir = dirs.make();
      const writer = createPageWriter(dir, { shards: SHARDS });
      for (let i = 0; i < 70; i++) writer.write(`/p/${i}`, rendered(JSON.stringify({ i, text: 'abc '.repeat(260 + i) })));
      await writer.close();
      return pageFileNames(SHARDS).map((file) => readFileSync(join(dir, file)));
    };
    const [a, b] = [await write(), await write()];
    a.forEach((bytes, i) => expect(bytes.equals(b[i]!)).toBe(true));
  });
});

/** Writes `pages` (key → text) as a snapshot of SHARDS shards would, with its manifest; the snapshot opened for reuse. */
async function previousOf(pages: Map<string, string>): Promise<{ dir: string; snapshot: PreviousSnapshot }> {
  const dir = dirs.make();
  const writer = createPageWriter(dir, { shards: SHARDS });
  for (const [key, text] of pages) writer.write(key, rendered(text));
  await writer.close();
  const { id } = await writeManifest(join(dir, MANIFEST_FILE), { baseUrl: 'https://x.test', videos: 0, files: writer.files, entries: writer.entries });
  const snapshot = openPreviousSnapshot(dir, id);
  if (typeof snapshot === 'string' || typeof snapshot.files === 'string') throw new Error(`not reusable: ${String(snapshot)}`);
  return { dir, snapshot };
}

/** Where each page's line is in a snapshot's manifest (previous-snapshot.ts, as a build reads it); close it after. */
async function manifestLinesOf(dir: string, id: string): Promise<ServedManifestLines> {
  const opened = await startOpenPrevious(dir, id).opened();
  if (typeof opened === 'string' || opened.manifestLines === undefined) throw new Error(`no lines: ${String(opened)}`);
  if (typeof opened.files !== 'string') opened.files.close();
  return opened.manifestLines;
}

/** Copies every page of `pages` from `previous` into a new writer (a key of `changed` is written with new text instead). */
async function rebuild(previous: PreviousSnapshot, pages: Map<string, string>, changed: ReadonlyMap<string, string> = new Map()): Promise<{ dir: string; writer: PageWriter }> {
  const dir = dirs.make();
  const writer = createPageWriter(dir, { shards: SHARDS, reuse: { pages: previous.pages, files: previous.files as Exclude<PreviousSnapshot['files'], string> } });
  const again = (key: string) => rendered(changed.get(key) ?? pages.get(key)!);
  for (const key of pages.keys()) {
    if (changed.has(key)) writer.write(key, rendered(changed.get(key)!));
    else if (!writer.copy(key, again)) writer.write(key, again(key));
  }
  await writer.close();
  return { dir, writer };
}

const videoPages = () => new Map(Array.from({ length: 40 }, (_, i) => [
  [`/v1/videos/v${i}`, JSON.stringify({ i, text: 'words '.repeat(100 + i) })],
  [`/v1/videos/v${i}/playback`, JSON.stringify({ i, playback: true })],
  [`/v1/videos?limit=20&offset=${i}`, JSON.stringify({ list: i, text: 'list '.repeat(200) })],
]).flat() as [string, string][]);

describe('page shards', () => {
  it('puts a video\'s pages in one shard, spreads the rest, and records the shard in every range', async () => {
    const pages = videoPages();
    const dir = dirs.make();
    const writer = createPageWriter(dir, { shards: SHARDS });
    for (const [key, text] of pages) writer.write(key, rendered(text));
    await writer.close();
    const used = new Set<number>();
    for (const key of pages.keys()) {
      const entry = writer.entries.get(key)!;
      const shard = shardOf(key, SHARDS);
      used.add(shard);
      for (const range of [entry.body, entry.br, entry.gzip]) if (range) expect(range[3]).toBe(shard);
      expect(reader(dir, 'body')(entry.body).toString()).toBe(pages.get(key));
    }
    expect(used.size).toBe(SHARDS);
    for (let i = 0; i < 40; i++) expect(shardOf(`/v1/videos/v${i}/playback`, SHARDS)).toBe(shardOf(`/v1/videos/v${i}`, SHARDS));
    expect(Object.keys(writer.files).sort()).toEqual(pageFileNames(SHARDS).sort());
  });

  it('hard-links the shards whose pages are all the previous ones in place, writes the others, and the files are those of a fresh write', async () => {
    const pages = videoPages();
    const { dir: before, snapshot } = await previousOf(pages);
    const changed = new Map([['/v1/videos/v7', JSON.stringify({ i: 7, text: 'changed' })]]);
    const { dir, writer } = await rebuild(snapshot, pages, changed);
    const touched = shardOf('/v1/videos/v7', SHARDS);
    expect(writer.counts.linked).toBe(SHARDS - 1);
    for (const name of pageFileNames(SHARDS)) {
      const shard = Number(/pages-(\d+)/.exec(name)![1]);
      expect(statSync(join(dir, name)).ino === statSync(join(before, name)).ino, name).toBe(shard !== touched);
    }
    // the same files as a fresh write of the changed pages
    const fresh = dirs.make();
    const direct = createPageWriter(fresh, { shards: SHARDS });
    for (const [key, text] of pages) direct.write(key, rendered(changed.get(key) ?? text));
    await direct.close();
    for (const name of pageFileNames(SHARDS)) expect(readFileSync(join(dir, name)).equals(readFileSync(join(fresh, name))), name).toBe(true);
    expect(writer.files).toEqual(direct.files);
    expect([...writer.entries].sort()).toEqual([...direct.entries].sort());
  });

  it('says which pages carry their previous ETag (taken as they were, linked or copied in runs), not those rendered anew', async () => {
    const pages = videoPages();
    const { snapshot } = await previousOf(pages);
    const changed = new Map([['/v1/videos/v7', JSON.stringify({ i: 7, text: 'changed' })]]);
    const { writer } = await rebuild(snapshot, pages, changed);
    const touched = shardOf('/v1/videos/v7', SHARDS);
    expect(writer.counts.linked).toBe(SHARDS - 1);
    for (const [key, entry] of writer.entries) expect(writer.carriesPreviousEtag(entry), key).toBe(key !== '/v1/videos/v7');
    // the written shard's other pages were copied in runs, with the previous ETags
    expect([...writer.entries.keys()].filter((key) => shardOf(key, SHARDS) === touched && key !== '/v1/videos/v7').length).toBeGreaterThan(3);
    expect(writer.carriesPreviousEtag({ ...writer.entries.get('/v1/videos/v8')! })).toBe(false);
  });

  it('holds the pages taken in place by their served page numbers, and the manifest, purge list and entries are those of a fresh write: videos removed, made private and added between two served ones, shards not linked', async () => {
    const pages = videoPages();
    const { dir: before, snapshot } = await previousOf(pages);
    const gone = (key: string) => key.startsWith('/v1/videos/v3/') || key === '/v1/videos/v3' || key.startsWith('/v1/videos/v21/') || key === '/v1/videos/v21';
    // v3 removed, v21 made private (its pages are no longer planned), v30a added between v30 and v31, v9's page changed
    const now = new Map<string, string>();
    for (const [key, text] of pages) {
      if (gone(key)) continue;
      now.set(key, key === '/v1/videos/v9' ? JSON.stringify({ i: 9, text: 'changed' }) : text);
      if (key === '/v1/videos/v30/playback') {
        now.set('/v1/videos/v30a', JSON.stringify({ i: '30a', text: 'new '.repeat(80) }));
        now.set('/v1/videos/v30a/playback', JSON.stringify({ i: '30a', playback: true }));
      }
    }
    const changed = new Map([['/v1/videos/v9', now.get('/v1/videos/v9')!], ['/v1/videos/v30a', now.get('/v1/videos/v30a')!], ['/v1/videos/v30a/playback', now.get('/v1/videos/v30a/playback')!]]);
    const { writer } = await rebuild(snapshot, now, changed);
    const fresh = dirs.make();
    const direct = createPageWriter(fresh, { shards: SHARDS });
    for (const [key, text] of now) direct.write(key, rendered(text));
    await direct.close();
    const notLinked = new Set([...now.keys(), ...pages.keys()].filter((key) => gone(key) || changed.has(key)).map((key) => shardOf(key, SHARDS)));
    expect(notLinked.size).toBeLessThan(SHARDS);
    expect(writer.counts.linked).toBe(SHARDS - notLinked.size);
    // the pages of the linked shards are held by number, the rest by key
    const { entries } = writer;
    const ofLinked = [...now.keys()].filter((key) => !notLinked.has(shardOf(key, SHARDS))).length;
    expect(entries.takenCount).toBe(ofLinked);
    expect(entries.others.size).toBe(now.size - ofLinked);
    expect(entries.size).toBe(now.size);
    for (const key of now.keys()) {
      expect(entries.has(key), key).toBe(true);
      expect(entries.get(key), key).toEqual(direct.entries.get(key));
    }
    for (const key of pages.keys()) if (gone(key)) expect(entries.has(key), key).toBe(false);
    expect([...entries.keys()].sort()).toEqual([...now.keys()].sort());
    expect([...entries].sort()).toEqual([...direct.entries].sort());
    // the purge list: the changed, added and removed pages, the same whether the taken pages are walked or not
    const expected = [...changed.keys(), ...[...pages.keys()].filter(gone)].sort();
    expect(diffPages(snapshot.pages, entries, writer.carriesPreviousEtag)).toEqual(expected);
    expect(diffPages(snapshot.pages, new Map(entries))).toEqual(expected);
    // the manifest, its linked shards' lines copied from the served one's: the bytes of a fresh write's
    const lines = await manifestLinesOf(before, snapshot.id);
    const served = { pages: snapshot.pages as PageTable, lines, linked: writer.linkedShards, sameKeys: false };
    const head = { baseUrl: 'https://x.test', videos: 0, files: writer.files };
    const ours = await writeManifest(join(dirs.make(), MANIFEST_FILE), { ...head, entries, served });
    const theirs = await writeManifest(join(dirs.make(), MANIFEST_FILE), { ...head, entries: direct.entries });
    lines.close();
    expect(ours.id).toBe(theirs.id);
  });

  it('holds nothing by number once its shard is not linked, and the same pages with only the served ones: the manifest is walked in the served order', async () => {
    const pages = videoPages();
    const { dir: before, snapshot } = await previousOf(pages);
    const changed = new Map([['/v1/videos/v12/playback', JSON.stringify({ i: 12, playback: 'changed' })]]);
    const { writer } = await rebuild(snapshot, pages, changed);
    const touched = shardOf('/v1/videos/v12/playback', SHARDS);
    for (const key of pages.keys()) {
      const held = writer.entries.others.has(key);
      expect(held, key).toBe(shardOf(key, SHARDS) === touched);
    }
    expect(writer.previousKeys).toBe(pages.size);
    const lines = await manifestLinesOf(before, snapshot.id);
    const served = { pages: snapshot.pages as PageTable, lines, linked: writer.linkedShards, sameKeys: true };
    const head = { baseUrl: 'https://x.test', videos: 0, files: writer.files };
    const ours = await writeManifest(join(dirs.make(), MANIFEST_FILE), { ...head, entries: writer.entries, served });
    const plain = await writeManifest(join(dirs.make(), MANIFEST_FILE), { ...head, entries: new Map(writer.entries) });
    lines.close();
    expect(ours.id).toBe(plain.id);
    expect(diffPages(snapshot.pages, writer.entries, writer.carriesPreviousEtag)).toEqual(['/v1/videos/v12/playback']);
  });

  it('does not link a shard that lost its last page (its previous files are longer): its pages are copied', async () => {
    const pages = videoPages();
    const { snapshot } = await previousOf(pages);
    const keys = [...pages.keys()];
    // the last page of one shard removed
    const shard = shardOf(keys.at(-1)!, SHARDS);
    const lastOfShard = keys.filter((k) => shardOf(k, SHARDS) === shard).at(-1)!;
    const fewer = new Map([...pages].filter(([k]) => k !== lastOfShard));
    const { writer } = await rebuild(snapshot, fewer);
    expect(writer.counts.linked).toBe(SHARDS - 1);
    expect(writer.counts.copied).toBe(fewer.size);
    expect(writer.entries.has(lastOfShard)).toBe(false);
  });

  it('copies, never links, a shard whose files cannot be linked (EPERM: immutable files), and writes the same bytes', async () => {
    const pages = videoPages();
    const { dir: before, snapshot } = await previousOf(pages);
    const files = pageFileNames(SHARDS).map((name) => join(before, name));
    execFileSync('chattr', ['+i', ...files]);
    try {
      const { dir, writer } = await rebuild(snapshot, pages);
      expect(writer.counts.linked).toBe(0);
      expect(writer.counts.unlinked).toBe(SHARDS);
      expect(writer.reuseStopped).toMatch(/cannot be hard-linked \(EPERM\)/);
      expect(writer.counts.copied).toBe(pages.size);
      for (const name of pageFileNames(SHARDS)) {
        expect(statSync(join(dir, name)).ino).not.toBe(statSync(join(before, name)).ino);
        expect(readFileSync(join(dir, name)).equals(readFileSync(join(before, name))), name).toBe(true);
      }
    } finally {
      execFileSync('chattr', ['-i', ...files]);
    }
  });
});

const json = (n: number, size: number) => Buffer.from(JSON.stringify({ n, data: 'abc '.repeat(size) }));

/** Copies of a page's variants (the pool's are views valid only during the call). */
const kept = ([br, gzip]: Variants): Variants => [br && Buffer.from(br), gzip && Buffer.from(gzip)];

describe('createCompressPool', () => {
  it('hands results back in the order queued, whatever order the workers finish in', async () => {
    const pool = createCompressPool(2);
    try {
      const bodies: Buffer[] = [];
      const order: number[] = [];
      const results: Variants[] = [];
      for (let b = 0; b < 12 * BATCH_PAGES; b++) {
        // Early batches are heavy, later ones light, so later batches tend to finish first.
        const body = json(b, b < 3 * BATCH_PAGES ? 10_000 : 200);
        bodies.push(body);
        pool.queue({ body }, (variants) => { order.push(b); results[b] = kept(variants); });
      }
      await pool.drain();
      expect(order).toEqual(bodies.map((_, b) => b));
      expect(pool.pending).toBe(0);
      bodies.forEach((body, b) => {
        const [br, gzip] = results[b]!;
        expect(brotliDecompressSync(br!).equals(body)).toBe(true);
        expect(gunzipSync(gzip!).equals(body)).toBe(true);
      });
    } finally {
      await pool.close();
    }
  });

  it('copies a queued body at once: the caller may overwrite its buffer', async () => {
    const pool = createCompressPool(1);
    try {
      const buffer = json(1, 3000);
      const original = Buffer.from(buffer);
      let variants: Variants | undefined;
      pool.queue({ body: buffer }, (v) => { variants = kept(v); });
      buffer.fill(0x20);
      await pool.drain();
      expect(brotliDecompressSync(variants![0]!).equals(original)).toBe(true);
      expect(gunzipSync(variants![1]!).equals(original)).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('compresses on the calling thread the batches no worker has taken, with the same bytes, still delivered in order', async () => {
    const bodies = Array.from({ length: 8 * BATCH_PAGES }, (_, b) => json(b, b % 2 === 0 ? 300 + b : 700));
    const run = async (here: boolean) => {
      const pool = createCompressPool(1);
      try {
        const order: number[] = [];
        const results: Variants[] = [];
        bodies.forEach((body, b) => pool.queue({ body }, (variants) => { order.push(b); results[b] = kept(variants); }));
        let compressedHere = 0;
        while (here && pool.compressHere()) compressedHere++;
        await pool.drain();
        expect(order).toEqual(bodies.map((_, b) => b));
        return { results, compressedHere };
      } finally {
        await pool.close();
      }
    };
    const byWorkers = await run(false);
    const mixed = await run(true);
    // one worker holds two batches at a time: the other six were compressed here
    expect(mixed.compressedHere).toBe(6);
    expect(byWorkers.compressedHere).toBe(0);
    mixed.results.forEach(([br, gzip], b) => {
      expect(br!.equals(byWorkers.results[b]![0]!)).toBe(true);
      expect(gzip!.equals(byWorkers.results[b]![1]!)).toBe(true);
    });
  });

  it('gives no variant for a body that compression would not make smaller', async () => {
    const pool = createCompressPool(1);
    try {
      let variants: Variants | undefined;
      pool.queue({ body: randomBytes(4096) }, (v) => { variants = kept(v); });
      await pool.drain();
      expect(variants).toEqual([undefined, undefined]);
    } finally {
      await pool.close();
    }
  });

  it('hands back the variants a page had (copied when queued) in its turn, after the pages queued before it', async () => {
    const pool = createCompressPool(1);
    try {
      const order: string[] = [];
      const br = Buffer.from('the br variant');
      const gzip = Buffer.from('the gzip variant');
      let ready: Variants | undefined;
      pool.queue({ body: json(1, 100_000) }, () => order.push('heavy'));
      pool.flush();
      pool.queue({ ready: [br, gzip] }, (v) => { order.push('ready'); ready = kept(v); });
      pool.queue({ ready: [undefined, gzip] }, ([b, g]) => order.push(`gzip only:${b === undefined}:${g?.toString()}`));
      pool.flush();
      br.fill(0);
      pool.queue({ body: json(2, 2000) }, () => order.push('light'));
      expect(pool.idle).toBe(false);
      expect(order).toEqual([]); // the ready pages wait for the page before them
      await pool.drain();
      expect(order).toEqual(['heavy', 'ready', 'gzip only:true:the gzip variant', 'light']);
      expect(ready!.map((v) => v?.toString())).toEqual(['the br variant', 'the gzip variant']);
      expect(pool.idle).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('reuses its memory: compressing many batches takes no more than a few of them hold', async () => {
    const pool = createCompressPool(1);
    try {
      const body = json(7, 20_000); // ~80 KB: three times that a page while it waits
      for (let round = 0; round < 40; round++) {
        for (let p = 0; p < BATCH_PAGES; p++) pool.queue({ body }, () => {});
        while (pool.pending > 2 && pool.compressHere());
        await pool.drain();
      }
      // 40 batches of 64 pages held 40 x 64 x 240 KB = 600 MB in all; at most a few batches at once
      expect(pool.arenaBytes).toBeLessThan(4 * BATCH_PAGES * 3 * body.length + 2 * CHUNK_BYTES);
    } finally {
      await pool.close();
    }
  });

  it('takes the workers\' results without waiting (receive): a thread that never yields gets its pages back, compressed by the worker', async () => {
    const pool = createCompressPool(1);
    try {
      const order: number[] = [];
      const results: Variants[] = [];
      const bodies = Array.from({ length: 3 * BATCH_PAGES }, (_, b) => json(b, 1500));
      bodies.forEach((body, b) => pool.queue({ body }, (variants) => { order.push(b); results[b] = kept(variants); }));
      pool.flush();
      // no await below: this thread's event loop never runs, so only `receive` can hand the results back
      const nap = new Int32Array(new SharedArrayBuffer(4));
      const until = Date.now() + 30_000;
      while (order.length < bodies.length && Date.now() < until) {
        Atomics.wait(nap, 0, 0, 5);
        pool.receive();
      }
      expect(order).toEqual(bodies.map((_, b) => b));
      expect(pool.idle).toBe(true);
      bodies.forEach((body, b) => expect(brotliDecompressSync(results[b]![0]!).equals(body)).toBe(true));
      await pool.drain();
    } finally {
      await pool.close();
    }
  });

  it('drains at once when nothing was queued', async () => {
    const pool = createCompressPool(1);
    try {
      await pool.drain();
      expect(pool.pending).toBe(0);
      expect(pool.idle).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
