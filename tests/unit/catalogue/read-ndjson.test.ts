import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readNdjsonLines } from '../../../src/catalogue/read-ndjson.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

function fileWith(content: string | Buffer, name = 'catalogue.ndjson'): string {
  const file = join(dirs.make(), name);
  writeFileSync(file, content);
  return file;
}

describe('readNdjsonLines', () => {
  it('numbers lines from 1', () => {
    expect(readNdjsonLines(fileWith('{"a":1}\n{"b":2}\n'))).toEqual([{ line: 1, text: '{"a":1}' }, { line: 2, text: '{"b":2}' }]);
  });

  it('reads a last line without a final newline', () => {
    expect(readNdjsonLines(fileWith('{"a":1}\n{"b":2}')).map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('skips blank lines but keeps the numbering of the file', () => {
    expect(readNdjsonLines(fileWith('{"a":1}\n\n   \n{"b":2}\n\n')).map((l) => l.line)).toEqual([1, 4]);
  });

  it('keeps a raw U+2028 or U+2029 inside a JSON string on one line', () => {
    const text = '{"title":"one\u2028two\u2029three"}\n{"title":"next"}\n';
    const lines = readNdjsonLines(fileWith(text));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!.text)).toEqual({ title: 'one\u2028two\u2029three' });
    expect(lines[1]!.line).toBe(2);
  });

  it('does not split on other Unicode line breaks (NEL, vertical tab, form feed)', () => {
    const lines = readNdjsonLines(fileWith('{"t":"a\u0085b"}\n{"t":"c"}\n'));
    expect(lines.map((l) => l.line)).toEqual([1, 2]);
    expect(JSON.parse(lines[0]!.text)).toEqual({ t: 'a\u0085b' });
  });

  it('handles Windows line endings, leaving no \\r on any line', () => {
    const lines = readNdjsonLines(fileWith('{"a":1}\r\n{"b":2}\r\n'));
    expect(lines).toEqual([{ line: 1, text: '{"a":1}' }, { line: 2, text: '{"b":2}' }]);
  });

  it('reads a gzipped file the same as the plain one', () => {
    const text = '{"a":"caf\u00e9"}\n\n{"b":"\u2028"}\r\n{"c":3}';
    expect(readNdjsonLines(fileWith(gzipSync(text), 'catalogue.ndjson.gz'))).toEqual(readNdjsonLines(fileWith(text)));
  });

  it('recognises gzip by its bytes, not by the file name', () => {
    const text = '{"a":1}\n';
    expect(readNdjsonLines(fileWith(gzipSync(text), 'no-extension'))).toEqual([{ line: 1, text: '{"a":1}' }]);
  });

  it('reads multi-byte UTF-8 intact', () => {
    const lines = readNdjsonLines(fileWith('{"t":"\u{1F600} \u4e2d\u6587"}\n'));
    expect(JSON.parse(lines[0]!.text)).toEqual({ t: '\u{1F600} \u4e2d\u6587' });
  });

  it('returns no lines for an empty file', () => {
    expect(readNdjsonLines(fileWith(''))).toEqual([]);
  });

  it('fails on a missing file', () => {
    expect(() => readNdjsonLines(join(dirs.make(), 'absent.ndjson'))).toThrow();
  });
});
