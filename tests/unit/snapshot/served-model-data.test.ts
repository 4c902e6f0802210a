// The served model data as a source of lines (src/snapshot/served-model-data.ts): read only when it
// is the file the served manifest records (size and SHA-256), each video's and comment's line found
// by its id, asked in file order, out of it, after changed records skipped, or not at all; read on
// this thread, or on a worker thread through the descriptor opened when the read started.
import { createHash } from 'node:crypto';
import { readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openServedModelData, startServedModelData, type ServedModelData } from '../../../src/snapshot/served-model-data.ts';
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

describe('startServedModelData (the file read on a worker thread)', () => {
  const text = (data: ServedModelData, bytes: Buffer, id: string, kind: 'video' | 'comment' = 'video') => {
    const range = data.line(kind, id);
    return range && bytes.subarray(range.start, range.end).toString();
  };

  it('finds the lines as on this thread: in order, skipped, out of order, not an escaped id', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `v${String(i).padStart(2, '0')}`);
    const { file, bytes, record } = served(['["header",{"baseUrl":"http://x"}]\n', ...ids.map(video), video('quo"te'), video('é'), video('ü2'), ...['c1', 'c2'].map(comment)]);
    const data = (await startServedModelData(file).opened(record))!;
    try {
      expect(data.counts).toEqual({ video: 62, comment: 2 });
      for (const id of ['v00', 'v01', 'v05', 'v50', 'v03', 'v04', 'é', 'ü2']) expect(text(data, bytes, id)).toBe(video(id));
      expect(text(data, bytes, 'quo"te')).toBeUndefined();
      expect(text(data, bytes, 'v0')).toBeUndefined(); // a prefix of an id is not the id
      expect(text(data, bytes, 'nope')).toBeUndefined();
      expect(text(data, bytes, 'c1', 'comment')).toBe(comment('c1'));
      expect(text(data, bytes, 'c2', 'comment')).toBe(comment('c2'));
    } finally {
      data.close();
    }
  });

  it('gives nothing of a file that is not the one recorded: another size, another SHA-256, none recorded, damaged, none at all', async () => {
    const { file, bytes, record } = served([video('v1'), comment('c1')]);
    expect(await startServedModelData(file).opened(undefined)).toBeUndefined();
    expect(await startServedModelData(file).opened({ ...record, size: record.size + 1 })).toBeUndefined();
    expect(await startServedModelData(file).opened({ ...record, sha256: '0'.repeat(64) })).toBeUndefined();
    const damaged = Buffer.from(bytes);
    damaged[12] = 'X'.charCodeAt(0);
    writeFileSync(file, damaged);
    expect(await startServedModelData(file).opened(record)).toBeUndefined();
    expect(await startServedModelData(join(dirs.make(), 'absent.ndjson')).opened(record)).toBeUndefined();
    // stopped before it is asked: nothing to answer, and stopping twice is harmless
    const stopped = startServedModelData(file);
    await stopped.stop();
    await stopped.stop();
  });

  it('checks and reads the file it opened when it started, even when another file is renamed into its place', async () => {
    const { file, bytes, record } = served([video('v1'), video('v2'), comment('c1')]);
    const task = startServedModelData(file);
    const other = join(dirs.make(), 'other.ndjson');
    writeFileSync(other, [video('v1'), video('v3')].join(''));
    renameSync(other, file);
    const data = (await task.opened(record))!;
    try {
      expect(text(data, bytes, 'v2')).toBe(video('v2'));
      const range = data.line('video', 'v2')!;
      const read = Buffer.alloc(range.end - range.start);
      // the range is read through the descriptor opened at the start: the checked bytes
      expect(readFileSync(file).toString()).not.toContain('v2');
      expect(readSync(range.fd, read, 0, read.length, range.start)).toBe(read.length);
      expect(read.toString()).toBe(video('v2'));
    } finally {
      data.close();
    }
  });
});
