// forEachByteLine (src/lib/file-lines.ts): the lines of a file shown as places in its bytes, whatever
// the chunk size, with every byte shown to `seen` (the SHA-256 of a manifest or a model data file).
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachByteLine } from '../../../src/lib/file-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'vpa-file-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function linesOf(text: string, chunkBytes: number, partialLast: boolean, stopAfter = Infinity) {
  const file = join(dir, `f${Math.random()}`);
  writeFileSync(file, text);
  const fd = openSync(file, 'r');
  try {
    const seen: Buffer[] = [];
    const lines: { text: string; at: number }[] = [];
    const size = forEachByteLine(fd, chunkBytes, (chunk) => seen.push(Buffer.from(chunk)), (bytes, start, end, at) => {
      lines.push({ text: bytes.toString('utf8', start, end), at });
      return lines.length < stopAfter;
    }, partialLast);
    return { lines, seen: Buffer.concat(seen).toString('utf8'), size };
  } finally {
    closeSync(fd);
  }
}

describe('forEachByteLine', () => {
  const text = `short\n${'x'.repeat(50)}\n\nünïcode line\nlast`;
  const expected = text.split('\n');

  it('shows every line with its file offset, across chunk ends and lines longer than a chunk', () => {
    for (const chunk of [1, 3, 7, 16, 1024]) {
      const { lines, seen, size } = linesOf(text, chunk, true);
      expect(lines.map((l) => l.text), `chunk ${chunk}`).toEqual(expected);
      let at = 0;
      for (const [i, line] of expected.entries()) {
        expect(lines[i]!.at).toBe(at);
        at += Buffer.byteLength(line) + 1;
      }
      expect(seen).toBe(text);
      expect(size).toBe(Buffer.byteLength(text));
    }
  });

  it('leaves out a last line without its newline unless asked for it', () => {
    expect(linesOf(text, 8, false).lines.map((l) => l.text)).toEqual(expected.slice(0, -1));
    expect(linesOf(`${text}\n`, 8, false).lines.map((l) => l.text)).toEqual(expected);
  });

  it('stops at the first line answered false', () => {
    expect(linesOf(text, 4, true, 2).lines.map((l) => l.text)).toEqual(expected.slice(0, 2));
  });
});
