// File stamps (src/snapshot/file-stamps.ts): a stamp is taken only for bytes read whole while the
// file did not change, and is followed through the build's own links and unlinks (which change a
// file's change time) only while nobody else writes the file; real files, real links.
import { linkSync, mkdirSync, openSync, closeSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSystemClock, FollowedStamps, unchangedSince, type FileStamp } from '../../../src/snapshot/file-stamps.ts';
import { hashFile } from '../../../src/snapshot/page-files.ts';
import { pruneSnapshots } from '../../../src/snapshot/swap.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const hourAgo = () => new Date(Date.now() - 3_600_000);
const stampNow = (file: string): FileStamp => {
  const s = statSync(file, { bigint: true });
  return [String(s.dev), String(s.ino), Number(s.size), String(s.mtimeNs), String(s.ctimeNs)];
};
const rewriteKeepingTimes = (file: string) => {
  const { atime, mtime } = statSync(file);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.from('X'), 0, 1, 0);
  } finally {
    closeSync(fd);
  }
  utimesSync(file, atime, mtime);
};

describe('file stamps', () => {
  it('hashFile gives a stamp only for a file last modified before the clock was read, and the stamp is its stat', () => {
    const dir = dirs.make();
    const file = join(dir, 'pages-000.bin');
    writeFileSync(file, 'page bytes');
    utimesSync(file, hourAgo(), hourAgo());
    const clock = fileSystemClock(dir)!;
    expect(clock).toBeDefined();
    const hashed = hashFile(file, clock);
    expect(hashed.stamp).toEqual(stampNow(file));
    expect(unchangedSince(dir, 'pages-000.bin', hashed.stamp)).toBe(true);
    // modified in the clock's tick or after it: a later write in that tick would not show, so no stamp
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(file, ahead, ahead);
    expect(hashFile(file, fileSystemClock(dir)).stamp).toBeUndefined();
    // no clock (it could not be written): no stamp
    expect(hashFile(file).stamp).toBeUndefined();
    expect(fileSystemClock(join(dir, 'missing'))).toBeUndefined();
  });

  it('follows a stamp through a link and through the removal of an older snapshot sharing the file, and drops it when someone rewrote the file, its times put back', () => {
    const root = dirs.make();
    const [old, served, current] = ['000000000000000a', '000000000000000b', '000000000000000c'].map((id) => join(root, id));
    for (const dir of [old, served, current]) mkdirSync(dir!);
    for (const name of ['pages-000.bin', 'pages-001.bin']) {
      writeFileSync(join(old!, name), `bytes of ${name}`);
      utimesSync(join(old!, name), hourAgo(), hourAgo());
      linkSync(join(old!, name), join(served!, name));
    }
    const verified = Object.fromEntries(['pages-000.bin', 'pages-001.bin'].map((name) => [name, hashFile(join(served!, name), fileSystemClock(root)).stamp!]));
    const followed = new FollowedStamps(verified);
    for (const name of Object.keys(verified)) followed.link(name, join(served!, name), join(current!, name));
    // the link changed each file's change time: followed, the stamps are the files as they are now
    expect(followed.of(current!)).toEqual(Object.fromEntries(Object.keys(verified).map((name) => [name, stampNow(join(current!, name))])));
    // someone rewrites pages-001.bin in place and puts its times back: its change time shows it
    rewriteKeepingTimes(join(current!, 'pages-001.bin'));
    // removing the two older snapshots unlinks names of both files (changing their change time again)
    writeFileSync(join(root, 'served.json'), JSON.stringify(['000000000000000a', '000000000000000b', '000000000000000c']));
    expect(pruneSnapshots(root, '000000000000000c', 0, followed).sort()).toEqual(['000000000000000a', '000000000000000b']);
    const recorded = followed.of(current!);
    expect(recorded).toEqual({ 'pages-000.bin': stampNow(join(current!, 'pages-000.bin')) });
    expect(statSync(join(current!, 'pages-000.bin')).nlink).toBe(1);
  });

  it('drops a stamp whose file was rewritten, its times put back, between the check and the link', () => {
    const root = dirs.make();
    const served = join(root, 'served');
    const current = join(root, 'current');
    mkdirSync(served);
    mkdirSync(current);
    const file = join(served, 'pages-000.gz.bin');
    writeFileSync(file, 'gzip bytes');
    utimesSync(file, hourAgo(), hourAgo());
    const stamp = hashFile(file, fileSystemClock(root)).stamp!;
    rewriteKeepingTimes(file);
    const followed = new FollowedStamps({ 'pages-000.gz.bin': stamp });
    followed.link('pages-000.gz.bin', file, join(current, 'pages-000.gz.bin'));
    expect(followed.of(current)).toEqual({});
  });
});
