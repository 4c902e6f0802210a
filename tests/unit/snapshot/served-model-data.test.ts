// The served model data as a source of lines (src/snapshot/served-model-data.ts): read only when it
// is the file the served manifest records (size and SHA-256), each video's and comment's line found
// by its id, asked in file order, out of it, after changed records skipped, or not at all.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openServedModelData } from '../../../src/snapshot/served-model-data.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const video = (id: string) => `["video",${JSON.stringify({ id, title: `t ${id}` })},0,[]]\n`;
const comment = (id: string) => `["comment",${JSON.stringify({ id, videoId: 'v1', text: 'x'.repeat(50) })}]\n`;

function served(lines: readonly string[]): { file: string; bytes: Buffer; record: { size: number; sha256: string } } {
  const file = join(dirs.make(), 'model.ndjson');
  const bytes = Buffer.from(lines.join(''));
  writeFileSync(file, bytes);
  return { file, bytes, record: { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') } };
}

describe('openServedModelData', () => {
  it('finds each video\'s and comment\'s line by id, in order, after a few skipped, out of order, and not a line whose id is escaped', () => {
    const ids = Array.from({ length: 60 }, (_, i) => `v${String(i).padStart(2, '0')}`);
    const lines = ['["header",{"baseUrl":"http://x"}]\n', '["channel",{"username":"v00"}]\n', ...ids.map(video), video('quo"te'), video('é'), ...['c1', 'c2'].map(comment)];
    const { file, bytes, record } = served(lines);
    const data = openServedModelData(file, record)!;
    try {
      expect(data.counts).toEqual({ video: 61, comment: 2 });
      const text = (id: string, kind: 'video' | 'comment' = 'video') => {
        const range = data.line(kind, id);
        return range && bytes.subarray(range.start, range.end).toString();
      };
      expect(text('v00')).toBe(video('v00'));
      expect(text('v01')).toBe(video('v01'));
      expect(text('v05')).toBe(video('v05')); // three skipped
      expect(text('v50')).toBe(video('v50')); // far ahead: the map
      expect(text('v03')).toBe(video('v03')); // behind
      expect(text('v04')).toBe(video('v04'));
      expect(text('é')).toBe(video('é'));
      expect(text('quo"te')).toBeUndefined();
      expect(text('nope')).toBeUndefined();
      expect(text('c2', 'comment')).toBe(comment('c2'));
      expect(text('v00', 'comment')).toBeUndefined();
    } finally {
      data.close();
    }
  });

  it('reads nothing of a file that is not the one recorded: another size, another SHA-256, none recorded, none at all', () => {
    const { file, bytes, record } = served([video('v1'), comment('c1')]);
    expect(openServedModelData(file, undefined)).toBeUndefined();
    expect(openServedModelData(file, { ...record, size: record.size + 1 })).toBeUndefined();
    expect(openServedModelData(file, { ...record, sha256: '0'.repeat(64) })).toBeUndefined();
    const damaged = Buffer.from(bytes);
    damaged[12] = 'X'.charCodeAt(0);
    writeFileSync(file, damaged);
    expect(openServedModelData(file, record)).toBeUndefined();
    expect(openServedModelData(join(dirs.make(), 'absent.ndjson'), record)).toBeUndefined();
    expect(readFileSync(file).length).toBe(record.size);
  });

  it('finds lines longer than its read window, and lines cut by the window\'s end', () => {
    const long = Array.from({ length: 40 }, (_, i) => `["video",${JSON.stringify({ id: `L${i}`, description: 'd'.repeat(i === 20 ? 5_000_000 : 300_000 + i) })},0,[]]\n`);
    const { file, bytes, record } = served(long);
    const data = openServedModelData(file, record)!;
    try {
      for (let i = 0; i < 40; i++) {
        const range = data.line('video', `L${i}`)!;
        expect(bytes.subarray(range.start, range.end).toString()).toBe(long[i]);
      }
    } finally {
      data.close();
    }
  });
});
