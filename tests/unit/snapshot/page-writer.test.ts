// src/snapshot/page-writer.ts and the worker pool that compresses for it (src/snapshot/compress-pool.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_COMPRESSIBLE } from '../../../src/http/encoding.ts';
import { type Rendered } from '../../../src/api/respond.ts';
import { createCompressPool, type Variants } from '../../../src/snapshot/compress-pool.ts';
import { PAGE_FILES } from '../../../src/snapshot/layout.ts';
import type { Range } from '../../../src/snapshot/manifest.ts';
import { createPageWriter } from '../../../src/snapshot/page-writer.ts';
import { tempDirs } from '../support/fixtures.ts';
import { etagOf } from '../../../src/http/etag.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const rendered = (text: string, headers: Record<string, string> = {}): Rendered => {
  const body = Buffer.from(text);
  return { status: 200, body, headers: { etag: etagOf(body), ...headers } };
};
const reader = (dir: string, kind: keyof typeof PAGE_FILES) => {
  const bytes = readFileSync(join(dir, PAGE_FILES[kind]));
  return ([offset, length]: Range) => bytes.subarray(offset, offset + length);
};

describe('createPageWriter', () => {
  it('writes every body, and br and gzip variants of large ones, where the entries say', async () => {
    const dir = dirs.make();
    const writer = createPageWriter(dir);
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

  it('writes thousands of small pages held at once (more than one writev takes) in order', async () => {
    const dir = dirs.make();
    const writer = createPageWriter(dir);
    const texts = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i }));
    // each body in memory of its own (not Node's shared pool), so none is written joined with the next
    for (const [i, text] of texts.entries()) writer.write(`/p/${i}`, { status: 200, body: Buffer.from(new Uint8Array(Buffer.from(text))), headers: { etag: etagOf(Buffer.from(text)) } });
    await writer.close();
    const body = reader(dir, 'body');
    expect(readFileSync(join(dir, PAGE_FILES.body)).toString()).toBe(texts.join(''));
    for (const [i, text] of texts.entries()) expect(body(writer.entries.get(`/p/${i}`)!.body).toString()).toBe(text);
  });

  it('records the Link and noindex headers of a page', async () => {
    const writer = createPageWriter(dirs.make());
    writer.write('/a', rendered('{}', { link: '<https://x.test/a?cursor=c>; rel="next"', 'x-robots-tag': 'noindex' }));
    writer.write('/b', rendered('{}'));
    await writer.close();
    expect(writer.entries.get('/a')).toMatchObject({ link: '<https://x.test/a?cursor=c>; rel="next"', noindex: true });
    expect(writer.entries.get('/b')!.link).toBeUndefined();
    expect(writer.entries.get('/b')!.noindex).toBeUndefined();
  });

  it('refuses a page rendered twice', async () => {
    const writer = createPageWriter(dirs.make());
    writer.write('/a', rendered('{}'));
    expect(() => writer.write('/a', rendered('{}'))).toThrow(/twice/);
    await writer.abort();
  });

  it('writes the same bytes for the same pages', async () => {
    const write = async () => {
      const dir = dirs.make();
      const writer = createPageWriter(dir);
      for (let i = 0; i < 70; i++) writer.write(`/p/${i}`, rendered(JSON.stringify({ i, text: 'abc '.repeat(260 + i) })));
      await writer.close();
      return Object.values(PAGE_FILES).map((file) => readFileSync(join(dir, file)));
    };
    const [a, b] = [await write(), await write()];
    a.forEach((bytes, i) => expect(bytes.equals(b[i]!)).toBe(true));
  });
});

const json = (n: number, size: number) => Buffer.from(JSON.stringify({ n, data: 'abc '.repeat(size) }));

describe('createCompressPool', () => {
  it('hands results back in submission order, whatever order the workers finish in', async () => {
    const pool = createCompressPool(2);
    try {
      const batches: Buffer[][] = [];
      const order: number[] = [];
      const results: Variants[][] = [];
      for (let b = 0; b < 12; b++) {
        // Early batches are heavy, later ones light, so later batches tend to finish first.
        const size = b < 3 ? 100_000 : 200;
        const bodies = [json(b, size), json(b + 100, size)];
        batches.push(bodies);
        pool.submit(bodies, (variants) => { order.push(b); results[b] = variants; });
      }
      await pool.drain();
      expect(order).toEqual(batches.map((_, b) => b));
      expect(pool.pending).toBe(0);
      batches.forEach((bodies, b) => bodies.forEach((body, i) => {
        const [br, gzip] = results[b]![i]!;
        expect(brotliDecompressSync(br!).equals(body)).toBe(true);
        expect(gunzipSync(gzip!).equals(body)).toBe(true);
      }));
    } finally {
      await pool.close();
    }
  });

  it('compresses on the calling thread the batches no worker has taken, with the same bytes, still delivered in order', async () => {
    const bodies = Array.from({ length: 8 }, (_, b) => [json(b, 3000 + b), json(b + 50, 700)]);
    const run = async (here: boolean) => {
      const pool = createCompressPool(1);
      try {
        const order: number[] = [];
        const results: Variants[][] = [];
        bodies.forEach((batch, b) => pool.submit(batch, (variants) => { order.push(b); results[b] = variants; }));
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
    mixed.results.forEach((batch, b) => batch.forEach(([br, gzip], i) => {
      expect(br!.equals(byWorkers.results[b]![i]![0]!)).toBe(true);
      expect(gzip!.equals(byWorkers.results[b]![i]![1]!)).toBe(true);
    }));
  });

  it('gives no variant for a body that compression would not make smaller', async () => {
    const pool = createCompressPool(1);
    try {
      let variants: Variants[] | undefined;
      pool.submit([randomBytes(4096)], (v) => { variants = v; });
      await pool.drain();
      expect(variants).toEqual([[undefined, undefined]]);
    } finally {
      await pool.close();
    }
  });

  it('delivers an empty batch (every page of it reused) in its turn, after the batches before it', async () => {
    const pool = createCompressPool(1);
    try {
      const order: string[] = [];
      pool.submit([json(1, 100_000)], () => order.push('heavy'));
      pool.submit([], (variants) => order.push(`empty:${variants.length}`));
      pool.submit([json(2, 200)], () => order.push('light'));
      expect(order).toEqual([]); // the empty batch waits for the one before it
      await pool.drain();
      expect(order).toEqual(['heavy', 'empty:0', 'light']);
    } finally {
      await pool.close();
    }
  });

  it('drains at once when nothing was submitted', async () => {
    const pool = createCompressPool(1);
    try {
      await pool.drain();
      expect(pool.pending).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
