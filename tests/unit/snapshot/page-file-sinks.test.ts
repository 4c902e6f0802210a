// src/snapshot/page-file-sinks.ts: the page files hashed and written on a worker thread. A file's
// bytes and record are those of writing its appends in order here, however the appends are cut and
// interleaved with other files'; a failed write fails the build with its code; nothing of a
// caller's buffer is kept.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageFileSinks } from '../../../src/snapshot/page-file-sinks.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
/** The worker threads this thread has running (process.report lists them). */
const workers = () => (process.report.getReport() as { workers: unknown[] }).workers.length;
afterEach(() => dirs.cleanup());

describe('page file sinks', () => {
  it('writes each file its appends in order, whatever their sizes and however they interleave, with its size and SHA-256', async () => {
    const dir = dirs.make();
    const sinks = createPageFileSinks();
    const files = [0, 1, 2].map((n) => ({ path: join(dir, `f${n}`), fd: openSync(join(dir, `f${n}`), 'w'), parts: [] as Buffer[] }));
    // sizes about the chunks' (64 KB, 1 MB), 0 and 1 byte, and 3 MB (cut in chunks), in many rounds
    const sizes = [1, 0, 65_535, 65_536, 65_537, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 << 20, 100];
    const scratch = Buffer.alloc(3 << 20);
    for (let round = 0; round < 8; round++) {
      for (const [n, file] of files.entries()) {
        const size = sizes[(round * 3 + n) % sizes.length]!;
        const bytes = randomBytes(size);
        file.parts.push(bytes);
        // the caller's buffer is overwritten at once after the call: nothing of it may be kept
        bytes.copy(scratch);
        sinks.write(file.fd, scratch.subarray(0, size));
        scratch.fill(0xff);
      }
      await sinks.keepUp();
    }
    const empty = { path: join(dir, 'empty'), fd: openSync(join(dir, 'empty'), 'w'), parts: [] as Buffer[] };
    for (const file of [...files, empty]) sinks.end(file.fd);
    const records = await sinks.finish();
    for (const file of [...files, empty]) {
      closeSync(file.fd);
      const expected = Buffer.concat(file.parts);
      expect(readFileSync(file.path).equals(expected), file.path).toBe(true);
      expect(records.get(file.fd)).toEqual({ size: expected.length, sha256: createHash('sha256').update(expected).digest('hex') });
    }
  });

  it('fails with the code of a write that failed (a file opened for reading: EBADF), and writes nothing more', async () => {
    const dir = dirs.make();
    const path = join(dir, 'read-only');
    closeSync(openSync(path, 'w'));
    const fd = openSync(path, 'r');
    const sinks = createPageFileSinks();
    try {
      sinks.write(fd, Buffer.from('bytes'));
      sinks.end(fd);
      await expect(sinks.finish()).rejects.toMatchObject({ code: 'EBADF' });
    } finally {
      await sinks.abort();
      closeSync(fd);
    }
  });

  it('writes a file of 200 MB appended a megabyte at a time, keepUp between the appends', async () => {
    const dir = dirs.make();
    const path = join(dir, 'big');
    const fd = openSync(path, 'w');
    const sinks = createPageFileSinks();
    const block = randomBytes(1 << 20);
    const hash = createHash('sha256');
    for (let i = 0; i < 200; i++) {
      sinks.write(fd, block);
      hash.update(block);
      await sinks.keepUp();
    }
    sinks.end(fd);
    const records = await sinks.finish();
    closeSync(fd);
    expect(records.get(fd)).toEqual({ size: 200 << 20, sha256: hash.digest('hex') });
  });

  it('finishes at once when nothing was handed over (no file written: no worker started)', async () => {
    const before = workers();
    const sinks = createPageFileSinks();
    await sinks.keepUp();
    // a worker is listed once it runs: given time to, none is
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(workers()).toBe(before);
    expect((await sinks.finish()).size).toBe(0);
  });

  it('starts its worker before the first batch when asked (a caller that will write), and writes as when started by it', async () => {
    const dir = dirs.make();
    const before = workers();
    const sinks = createPageFileSinks();
    sinks.start();
    // listed once it runs, before anything is written
    await vi.waitFor(() => expect(workers()).toBe(before + 1), { timeout: 10_000 });
    sinks.start(); // once
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(workers()).toBe(before + 1);
    const path = join(dir, 'f');
    const fd = openSync(path, 'w');
    const bytes = randomBytes(300_000);
    sinks.write(fd, bytes.subarray(0, 100));
    await sinks.keepUp();
    sinks.write(fd, bytes.subarray(100));
    sinks.end(fd);
    const records = await sinks.finish();
    closeSync(fd);
    expect(records.get(fd)).toEqual({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(workers()).toBe(before);
    // started and given nothing: it finishes, empty, and its worker ends
    const idle = createPageFileSinks();
    idle.start();
    expect((await idle.finish()).size).toBe(0);
    expect(workers()).toBe(before);
  });
});
