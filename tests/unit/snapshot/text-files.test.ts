// writeText (text-files.ts) writes the model data and the search index a piece at a time: the file,
// its size and its SHA-256 must be those of the pieces joined and encoded as UTF-8, whatever the
// pieces' sizes and wherever a surrogate pair is split between two of them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { slices, writeText } from '../../../src/snapshot/text-files.ts';
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
