import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { NdjsonFileError, readNdjsonLines as readLines, type NumberedLine, type UnreadableLine } from '../../../src/catalogue/read-ndjson.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** Every line the reader gives, collected. */
async function readNdjsonLines(path: string): Promise<{ line: number; text?: string; unreadable?: string }[]> {
  const out: (NumberedLine | UnreadableLine)[] = [];
  for await (const line of readLines(path)) out.push(line);
  return out as { line: number; text?: string; unreadable?: string }[];
}

function fileWith(content: string | Buffer, name = 'catalogue.ndjson'): string {
  const file = join(dirs.make(), name);
  writeFileSync(file, content);
  return file;
}

describe('readNdjsonLines', () => {
  it('numbers lines from 1', async () => {
    expect(await readNdjsonLines(fileWith('{"a":1}\n{"b":2}\n'))).toEqual([{ line: 1, text: '{"a":1}' }, { line: 2, text: '{"b":2}' }]);
  });

  it('reads a last line without a final newline', async () => {
    expect((await readNdjsonLines(fileWith('{"a":1}\n{"b":2}'))).map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('skips blank lines but keeps the numbering of the file', async () => {
    expect((await readNdjsonLines(fileWith('{"a":1}\n\n   \n{"b":2}\n\n'))).map((l) => l.line)).toEqual([1, 4]);
  });

  it('keeps a raw U+2028 or U+2029 inside a JSON string on one line', async () => {
    const text = '{"title":"one\u2028two\u2029three"}\n{"title":"next"}\n';
    const lines = await readNdjsonLines(fileWith(text));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!.text!)).toEqual({ title: 'one\u2028two\u2029three' });
    expect(lines[1]!.line).toBe(2);
  });

  it('does not split on other Unicode line breaks (NEL, vertical tab, form feed)', async () => {
    const lines = await readNdjsonLines(fileWith('{"t":"a\u0085b"}\n{"t":"c"}\n'));
    expect(lines.map((l) => l.line)).toEqual([1, 2]);
    expect(JSON.parse(lines[0]!.text!)).toEqual({ t: 'a\u0085b' });
  });

  it('handles Windows line endings, leaving no \\r on any line', async () => {
    const lines = await readNdjsonLines(fileWith('{"a":1}\r\n{"b":2}\r\n'));
    expect(lines).toEqual([{ line: 1, text: '{"a":1}' }, { line: 2, text: '{"b":2}' }]);
  });

  it('reads a gzipped file the same as the plain one', async () => {
    const text = '{"a":"caf\u00e9"}\n\n{"b":"\u2028"}\r\n{"c":3}';
    expect(await readNdjsonLines(fileWith(gzipSync(text), 'catalogue.ndjson.gz'))).toEqual(await readNdjsonLines(fileWith(text)));
  });

  it('recognises gzip by its bytes, not by the file name', async () => {
    const text = '{"a":1}\n';
    expect(await readNdjsonLines(fileWith(gzipSync(text), 'no-extension'))).toEqual([{ line: 1, text: '{"a":1}' }]);
  });

  it('reads multi-byte UTF-8 intact', async () => {
    const lines = await readNdjsonLines(fileWith('{"t":"\u{1F600} \u4e2d\u6587"}\n'));
    expect(JSON.parse(lines[0]!.text!)).toEqual({ t: '\u{1F600} \u4e2d\u6587' });
  });

  it('returns no lines for an empty file', async () => {
    expect(await readNdjsonLines(fileWith(''))).toEqual([]);
  });

  it('fails on a missing file', async () => {
    await expect(readNdjsonLines(join(dirs.make(), 'absent.ndjson'))).rejects.toThrow();
  });

  it('refuses a line that is not UTF-8, by its number, and reads on', async () => {
    const bytes = Buffer.concat([Buffer.from('{"a":1}\n{"t":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n{"b":2}\n')]);
    expect(await readNdjsonLines(fileWith(bytes))).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 2, unreadable: expect.stringMatching(/not valid UTF-8/) },
      { line: 3, text: '{"b":2}' },
    ]);
  });

  it('skips a UTF-8 byte-order mark at the start, and only there', async () => {
    const lines = await readNdjsonLines(fileWith(`\uFEFF{"a":1}\n{"b":2}\n`));
    expect(lines).toEqual([{ line: 1, text: '{"a":1}' }, { line: 2, text: '{"b":2}' }]);
    expect(JSON.parse(lines[0]!.text!)).toEqual({ a: 1 });
  });

  it('names the file when its gzip data is cut short', async () => {
    const whole = gzipSync(Array.from({ length: 2000 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(i % 50)}"}`).join('\n'));
    const path = fileWith(whole.subarray(0, Math.floor(whole.length / 2)), 'cut.ndjson.gz');
    const error = await readNdjsonLines(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NdjsonFileError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(/truncated/);
  });

  it('keeps lines whole across chunk boundaries of a large file', async () => {
    const records = Array.from({ length: 30_000 }, (_, i) => `{"n":${i},"t":"\u4e2d${'y'.repeat(i % 97)}"}`);
    const lines = await readNdjsonLines(fileWith(gzipSync(records.join('\n')), 'big.gz'));
    expect(lines.length).toBe(records.length);
    expect(lines.every((l, i) => l.text === records[i] && l.line === i + 1)).toBe(true);
  });
});
