// src/server/chunk-lines.ts: the lines of a file that comes a chunk at a time, wherever the chunks
// are cut (inside a line, at a newline, inside a UTF-8 character), are the file's lines.
import { describe, expect, it } from 'vitest';
import { chunkLines } from '../../../src/server/chunk-lines.ts';

const linesOf = (bytes: Buffer, cuts: number[]): string[] => {
  const lines = chunkLines();
  const out: string[] = [];
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    out.push(...lines.of(Uint8Array.prototype.slice.call(bytes, from, to)));
    from = to;
  }
  const last = lines.end();
  if (last !== undefined) out.push(last);
  return out;
};

describe('chunkLines', () => {
  const text = ['["video",{"title":"開発チーム運営"}]', '', '["comment",{"text":"ünïcødé 😀"}]', 'x'.repeat(300), '["live",{}]'];
  const file = Buffer.from(`${text.join('\n')}\n`);

  it('gives every line of the file at every cut, one cut or many', () => {
    for (let cut = 0; cut <= file.length; cut++) expect(linesOf(file, [cut]), String(cut)).toEqual(text);
    for (const size of [1, 2, 3, 7, 64]) {
      const cuts = Array.from({ length: Math.floor(file.length / size) }, (_, i) => (i + 1) * size).filter((c) => c < file.length);
      expect(linesOf(file, cuts), String(size)).toEqual(text);
    }
  });

  it('gives the last line of a file that does not end with a newline, and nothing more for one that does', () => {
    expect(linesOf(Buffer.from('a\nb'), [1])).toEqual(['a', 'b']);
    expect(linesOf(Buffer.from('a\nb\n'), [3])).toEqual(['a', 'b']);
    expect(linesOf(Buffer.from(''), [])).toEqual([]);
  });

  it('keeps no view of a chunk it has read (the chunk can be let go)', () => {
    const lines = chunkLines();
    const chunk = new Uint8Array(Buffer.from('first\nsecond-half-'));
    expect([...lines.of(chunk)]).toEqual(['first']);
    chunk.fill(0x21); // the caller reuses or drops the chunk
    expect([...lines.of(Buffer.from('done\n'))]).toEqual(['second-half-done']);
  });
});
