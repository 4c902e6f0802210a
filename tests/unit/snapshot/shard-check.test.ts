// The check of the served snapshot's page shards before a rebuild links them (shard-check.ts,
// link-check.ts): real files, real worker thread. A shard skipped before rendering (a video of it
// changed) is not hashed unless the writer wants it after all; a damaged one is never whole; a
// file whose stamp is the one taken when it was last hashed (file-stamps.ts) is not read.
import { mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, PAGE_KINDS, pageFileName } from '../../../src/snapshot/layout.ts';
import { startLinkCheck } from '../../../src/snapshot/link-check.ts';
import type { FileRecord } from '../../../src/snapshot/manifest.ts';
import { shardOf } from '../../../src/snapshot/page-shards.ts';
import { videoPath } from '../../../src/snapshot/plan-pages.ts';
import type { PreviousPageFiles } from '../../../src/snapshot/previous-snapshot.ts';
import { startShardCheck } from '../../../src/snapshot/shard-check.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const SHARDS = 8;

/** A served snapshot's folder with SHARDS shards of page files and a manifest; the records and the id. */
function servedSnapshot(): { dir: string; id: string; records: Record<string, FileRecord> } {
  const dir = dirs.make();
  mkdirSync(dir, { recursive: true });
  const records: Record<string, FileRecord> = {};
  for (let shard = 0; shard < SHARDS; shard++) {
    for (const kind of PAGE_KINDS) {
      const bytes = Buffer.from(`${kind} bytes of shard ${shard}\n`.repeat(50));
      writeFileSync(join(dir, pageFileName(kind, shard)), bytes);
      records[pageFileName(kind, shard)] = { size: bytes.length, sha256: sha256(bytes) };
    }
  }
  const manifest = '{"format":3}\n';
  writeFileSync(join(dir, MANIFEST_FILE), manifest);
  return { dir, id: sha256(manifest).slice(0, 16), records };
}

describe('shard check', () => {
  it('finds every shard whole, and a shard damaged in place not whole', async () => {
    const { dir, id, records } = servedSnapshot();
    writeFileSync(join(dir, pageFileName('br', 3)), Buffer.from('br bytes of shard 3\n'.repeat(50)).fill(0x41, 5, 9));
    const check = startShardCheck(dir, id, SHARDS, records);
    expect(check.skippedFromStart).toBe(0);
    const whole = await check.finish();
    await check.stop();
    expect(Array.from({ length: SHARDS }, (_, shard) => whole(shard))).toEqual([true, true, true, false, true, true, true, true]);
  });

  it('does not count a shard skipped before it started as whole, unless it is wanted again', async () => {
    const { dir, id, records } = servedSnapshot();
    const check = startShardCheck(dir, id, SHARDS, records, [2, 5, 2]);
    expect(check.skippedFromStart).toBe(2);
    check.want(5);
    const whole = await check.finish();
    await check.stop();
    expect(whole(2)).toBe(false);
    expect(whole(5)).toBe(true);
    expect(whole(4)).toBe(true);
  });

  it('a wanted shard that was skipped is still checked: damaged, it is not whole', async () => {
    const { dir, id, records } = servedSnapshot();
    writeFileSync(join(dir, pageFileName('body', 6)), 'other bytes');
    const check = startShardCheck(dir, id, SHARDS, records, [6]);
    check.want(6);
    const whole = await check.finish();
    await check.stop();
    expect(whole(6)).toBe(false);
  });

  it('stamps each file it hashes whole, and takes a file whose stamp is unchanged as whole, unread; a file written since, or not yet settled, is read', async () => {
    const { dir, id, records } = servedSnapshot();
    const names = Object.keys(records);
    const setTimes = (at: Date) => {
      for (const name of names) utimesSync(join(dir, name), at, at);
    };
    // modified in the tick of the file system's clock the check reads in, or later (here: an hour ahead): a write later in
    // that tick would not show in the modification time, so no stamp is taken
    setTimes(new Date(Date.now() + 3_600_000));
    const ahead = startShardCheck(dir, id, SHARDS, records);
    await ahead.finish();
    await ahead.stop();
    expect(ahead.verified()).toEqual({});
    // modified an hour ago: every file hashed whole is stamped, by the worker or by this thread
    setTimes(new Date(Date.now() - 3_600_000));
    const first = startShardCheck(dir, id, SHARDS, records);
    await first.finish();
    await first.stop();
    expect(first.unread()).toBe(0);
    const stamps = first.verified();
    expect(Object.keys(stamps).sort()).toEqual([...names].sort());
    // unchanged since: none read
    const again = startShardCheck(dir, id, SHARDS, records, [], stamps);
    await again.finish();
    await again.stop();
    expect(again.unread()).toBe(names.length);
    expect(again.verified()).toEqual(stamps);
    // damaged in place, its size kept (its modification time changes); rewritten with its modification time put back (its
    // change time changes); a stamp of another size: each is read, and the damaged ones are not whole
    const gzip5 = join(dir, pageFileName('gzip', 5));
    writeFileSync(gzip5, Buffer.from('gzip bytes of shard 5\n'.repeat(50)).fill(0x41, 0, 3));
    const body1 = join(dir, pageFileName('body', 1));
    const { mtime } = statSync(body1);
    writeFileSync(body1, Buffer.from('body bytes of shard 1\n'.repeat(50)).fill(0x41, 0, 3));
    utimesSync(body1, mtime, mtime);
    const br2 = pageFileName('br', 2);
    const later = startShardCheck(dir, id, SHARDS, records, [], { ...stamps, [br2]: [stamps[br2]![0], stamps[br2]![1], 1, stamps[br2]![3], stamps[br2]![4]] });
    const whole = await later.finish();
    await later.stop();
    expect(Array.from({ length: SHARDS }, (_, shard) => whole(shard))).toEqual([true, false, true, true, true, false, true, true]);
    expect(later.unread()).toBeLessThan(names.length - 2);
    expect(later.verified()[pageFileName('gzip', 5)]).toBeUndefined();
    expect(later.verified()[pageFileName('body', 1)]).toBeUndefined();
    // br 2 read and found whole: stamped again as it is
    expect(later.verified()[br2]).toEqual(stamps[br2]);
  });

  it('startLinkCheck skips the shards of the videos whose inputs changed, were added or removed, and only those', async () => {
    const { dir, id, records } = servedSnapshot();
    const previous = { dir, id, shards: SHARDS, records, read: () => Buffer.alloc(0), close: () => {} } as PreviousPageFiles;
    const ids = Array.from({ length: 40 }, (_, i) => `vid-${i}`);
    const before = new Map(ids.map((v) => [`video:${v}`, `key-${v}`]));
    before.set('/v1/categories', 'k');
    const now = new Map(before);
    now.set('video:vid-3', 'changed');
    now.delete('video:vid-7');
    now.set('video:new one', 'k');
    now.set('/v1/categories', 'other'); // a list page's key: its shard is not known before rendering
    const changed = new Set(['vid-3', 'vid-7', 'new one'].map((v) => shardOf(videoPath(v), SHARDS)));
    expect(changed.size).toBeLessThan(SHARDS);
    const check = startLinkCheck(previous, SHARDS, now, before);
    // the page writer starts its files' writer thread at once when shards are skipped from the start
    expect(check.skippedFromStart).toBe(changed.size);
    const whole = await check.finish();
    await check.stop();
    for (let shard = 0; shard < SHARDS; shard++) expect(whole(shard), `shard ${shard}`).toBe(!changed.has(shard));

    // told which videos' keys the build made (the rest taken from the served snapshot): the same shards,
    // a video made with its served key unchanged skipping nothing, the video gone found by the count
    const made = { ids: ['vid-3', 'new one', 'vid-11'], taken: 40 - 3 };
    const told = startLinkCheck(previous, SHARDS, now, before, made);
    expect(told.skippedFromStart).toBe(changed.size);
    await told.finish();
    await told.stop();
    // nothing gone: only the made videos' shards, and vid-7's shard is not skipped for it
    const kept = new Map(now);
    kept.set('video:vid-7', 'key-vid-7');
    const none = startLinkCheck(previous, SHARDS, kept, before, { ids: ['vid-3', 'new one'], taken: 40 - 1 });
    expect(none.skippedFromStart).toBe(new Set(['vid-3', 'new one'].map((v) => shardOf(videoPath(v), SHARDS))).size);
    await none.finish();
    await none.stop();
  });
});
