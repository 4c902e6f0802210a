// writeText (text-files.ts) writes the search index, the manifest and the page inputs a piece at a
// time, and writeTextOffThread (write-text-off-thread.ts) the model data, its writes and hashing on a
// worker thread: the file, its size and its SHA-256 must be those of the pieces joined and encoded as
// UTF-8, whatever the pieces' sizes and wherever a surrogate pair is split between two of them, and a
// full disk must be said as such (its code kept) by both. The worker copies the ranges of a served
// file itself, so the build goes on once it has handed them over (startTextOffThread).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { BUFFER_BYTES, slices, writeText, type TextPiece } from '../../../src/snapshot/text-files.ts';
import { startTextOffThread, writeTextOffThread } from '../../../src/snapshot/write-text-off-thread.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function expectWritten(pieces: readonly string[]): void {
  const file = join(dirs.make(), 'out.txt');
  const record = writeText(file, pieces);
  const expected = Buffer.from(pieces.join(''));
  const written = readFileSync(file);
  expect(written.equals(expected)).toBe(true);
  expect(record).toEqual({ size: expected.length, sha256: createHash('sha256').update(expected).digest('hex') });
}

describe('writeText', () => {
  it('writes nothing for no pieces', () => {
    expectWritten([]);
    expectWritten(['', '']);
  });

  it('writes many small pieces, across the buffer boundary, as one text', () => {
    expectWritten(Array.from({ length: 50_000 }, (_, i) => `["video",{"id":"v${i}","title":"Ünïcödé \u{1f600} ${'x'.repeat(i % 97)}"}]\n`));
  });

  it('writes pieces larger than its buffer, between small ones', () => {
    expectWritten(['a', 'é'.repeat(3_000_000), 'b', '\u{1f600}'.repeat(700_000), 'c']);
  });

  it('encodes a surrogate pair split between two pieces whole, and a lone surrogate as U+FFFD as before', () => {
    const pair = '\u{1f600}';
    expectWritten([`ab${pair[0]}`, `${pair[1]}cd`]);
    expectWritten([pair[0]!, pair[1]!]);
    expectWritten([`x${pair[0]}`, 'y', `${pair[1]}`]);
    expectWritten([`end${pair[0]}`]);
    expectWritten([pair[0]!, '', pair[1]!]);
    const big = `${'z'.repeat(800_000)}${pair[0]}`;
    expectWritten([big, `${pair[1]}${'z'.repeat(10)}`]);
    expect(Buffer.from(`x${pair[0]}`).toString('hex')).toBe('78efbfbd');
  });

  it('writes what slices() cut of a text exactly as the text', () => {
    const text = `${'a\u{1f600}é'.repeat(400_000)}`;
    expectWritten([...slices(text, 1 << 20)]);
  });

  it('matches the joined text for any pieces, cut anywhere (inside a surrogate pair too)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
      const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...at].map((start, i) => text.slice(start, [...at, text.length][i]));
      expect(pieces.join('')).toBe(text);
      expectWritten(pieces);
    }), { numRuns: 200 });
  });
});

describe('pieces of file bytes among the text (a served file\'s lines copied: served-model-data.ts)', () => {
  it('writes the ranges\' bytes in their place, across buffer boundaries, after a pending high surrogate, on either thread', async () => {
    const dir = dirs.make();
    const source = join(dir, 'source.bin');
    const bytes = Buffer.from(Array.from({ length: BUFFER_BYTES * 2 + 12_345 }, (_, i) => 0x61 + (i % 26)));
    writeFileSync(source, bytes);
    const fd = openSync(source, 'r');
    try {
      const pieces: TextPiece[] = ['head \ud83d', { fd, start: 3, end: 10 }, 'x'.repeat(BUFFER_BYTES - 5), { fd, start: 0, end: bytes.length }, '\ud83d\ude00', { fd, start: 100, end: 100 }, { fd, start: 7, end: 8 }];
      const expected = Buffer.concat([Buffer.from('head \ud83d'), bytes.subarray(3, 10), Buffer.from('x'.repeat(BUFFER_BYTES - 5)), bytes, Buffer.from('\ud83d\ude00'), bytes.subarray(7, 8)]);
      const record = { size: expected.length, sha256: createHash('sha256').update(expected).digest('hex') };
      const here = join(dir, 'here.txt');
      expect(writeText(here, pieces)).toEqual(record);
      expect(readFileSync(here).equals(expected)).toBe(true);
      const there = join(dir, 'there.txt');
      expect(await writeTextOffThread(there, pieces)).toEqual(record);
      expect(readFileSync(there).equals(expected)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('fails when the file ends before a range does (it was cut after it was checked), on either thread', async () => {
    const dir = dirs.make();
    const source = join(dir, 'source.bin');
    writeFileSync(source, 'short');
    const fd = openSync(source, 'r');
    try {
      expect(() => writeText(join(dir, 'out.txt'), ['a', { fd, start: 2, end: 50 }])).toThrow(/ended at byte 5/);
      // a short range is read here, as writeText reads it; a range of a megabyte or more is read by the
      // worker, after this thread has handed it on: the record says the failure
      await expect(writeTextOffThread(join(dir, 'here.txt'), ['a', { fd, start: 2, end: 50 }])).rejects.toThrow(/ended at byte 5/);
      const writing = startTextOffThread(join(dir, 'there.txt'), ['a', { fd, start: 2, end: BUFFER_BYTES }, 'b']);
      await writing.handed;
      await expect(writing.record).rejects.toThrow(/ended at byte 5/);
    } finally {
      closeSync(fd);
    }
  });

  it('hands the ranges on to the worker (this thread is done before they are copied), and a stopped writer\'s record rejects once the worker is gone', async () => {
    const dir = dirs.make();
    const source = join(dir, 'source.bin');
    const bytes = Buffer.alloc(BUFFER_BYTES * 8, 'r');
    writeFileSync(source, bytes);
    const fd = openSync(source, 'r');
    try {
      // 80 ranges of 16 MB, with text between them: more bytes than this thread's three buffers could hold
      const pieces: TextPiece[] = Array.from({ length: 80 }, (_, i) => [`line ${i}\n`, { fd, start: 0, end: bytes.length }]).flat();
      const writing = startTextOffThread(join(dir, 'big.txt'), pieces);
      await writing.handed;
      await writing.stop();
      await expect(writing.record).rejects.toThrow(/stopped/);
      const whole = startTextOffThread(join(dir, 'whole.txt'), pieces.slice(0, 4));
      await whole.handed;
      expect((await whole.record).size).toBe(2 * (7 + bytes.length));
    } finally {
      closeSync(fd);
    }
  });
});

describe('writeTextOffThread', () => {
  async function expectWrittenOffThread(pieces: readonly string[]): Promise<void> {
    const file = join(dirs.make(), 'out.txt');
    const record = await writeTextOffThread(file, pieces);
    const expected = Buffer.from(pieces.join(''));
    expect(readFileSync(file).equals(expected)).toBe(true);
    expect(record).toEqual({ size: expected.length, sha256: createHash('sha256').update(expected).digest('hex') });
  }

  it('writes what writeText writes: nothing, small pieces over many buffers, pieces larger than a buffer, split surrogate pairs', async () => {
    await expectWrittenOffThread([]);
    // about 19 MB: more 2 MB chunks than the writer has buffers, each one handed back before reuse
    await expectWrittenOffThread(Array.from({ length: 150_000 }, (_, i) => `["video",{"id":"v${i}","title":"Ünïcödé \u{1f600} ${'x'.repeat(i % 97)}"}]\n`));
    await expectWrittenOffThread(['a', 'é'.repeat(3_000_000), 'b', '\u{1f600}'.repeat(700_000), 'c']);
    const pair = '\u{1f600}';
    await expectWrittenOffThread([`ab${pair[0]}`, `${pair[1]}cd`, `end${pair[0]}`]);
  });

  it('says a full disk as such: the worker\'s error keeps its code (ENOSPC), as writeText\'s does', async () => {
    const pieces = () => Array.from({ length: 10_000 }, (_, i) => `line ${i} ${'y'.repeat(500)}\n`);
    expect(() => writeText('/dev/full', pieces())).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    await expect(writeTextOffThread('/dev/full', pieces())).rejects.toMatchObject({ code: 'ENOSPC' });
  });

  it('fails with the error of the pieces\' generator, after the worker has taken some chunks', async () => {
    const file = join(dirs.make(), 'out.txt');
    const failing = (function* () {
      for (let i = 0; i < 40_000; i++) yield `${'z'.repeat(200)}\n`;
      throw new Error('the model could not be serialised');
    })();
    await expect(writeTextOffThread(file, failing)).rejects.toThrow('the model could not be serialised');
  });
});
