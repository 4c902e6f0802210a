// What a build saw of the served page files whose SHA-256 it checked before linking them: each
// file's device, inode, size, modification and change times, kept beside the snapshots
// (built-from.json, swap.ts). The next rebuild takes a served file whose stamp is unchanged as whole
// without reading it again, as git's index does with a file's stat data (docs/reliability.md, "Page
// shards and hard links"). A stamp is only ever one taken when the bytes were read and hashed (the
// same before and after the read, the file last modified in an earlier tick of the file system's
// clock than the read began), or one such stamp found unchanged: it vouches for no byte no build
// verified.
import { fstatSync, rmSync, statSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** A file's device, inode, size, modification and change times (ns). */
export type FileStamp = readonly [dev: string, ino: string, size: number, mtimeNs: string, ctimeNs: string];

/** Stamps by file name (a snapshot's page files). */
export type FileStamps = Readonly<Record<string, FileStamp>>;

/** The file written beside the snapshots to read the file system's clock: `.stamp-clock-<pid>-<thread>`. */
export const CLOCK_FILE = /^\.stamp-clock-(\d+)-\d+$/;

const stampOfStats = (s: BigIntStats): FileStamp => [String(s.dev), String(s.ino), Number(s.size), String(s.mtimeNs), String(s.ctimeNs)];

function stampOf(file: string): FileStamp | undefined {
  try {
    const s = statSync(file, { bigint: true });
    return s.isFile() ? stampOfStats(s) : undefined;
  } catch {
    return undefined;
  }
}

const same = (a: FileStamp, b: FileStamp, times: 'both' | 'modification'): boolean =>
  a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && (times === 'modification' || a[4] === b[4]);

/**
 * The file system's time now (ns), as the modification time of a file written in `dir` (the same
 * clock and granularity as its files'); undefined when it cannot be written (a full disk): nothing is
 * stamped then.
 */
export function fileSystemClock(dir: string): bigint | undefined {
  const clock = join(dir, `.stamp-clock-${process.pid}-${threadId}`);
  try {
    writeFileSync(clock, '');
    return statSync(clock, { bigint: true }).mtimeNs;
  } catch {
    return undefined;
  } finally {
    rmSync(clock, { force: true });
  }
}

/**
 * The stamp of the file open as `fd` whose bytes are being read: `before` is its fstat before the
 * first read; with `clock` (fileSystemClock, read before that), the stamp is given only when the
 * fstat after the last read is the same and the file was last modified in an earlier tick than
 * `clock`, so that any write since the read began shows in its modification time (a write in the
 * same tick as the file's last one would not: git's "racily clean" entries).
 */
export function stampAfterRead(fd: number, before: BigIntStats, clock: bigint | undefined): FileStamp | undefined {
  if (clock === undefined || before.mtimeNs >= clock) return undefined;
  const after = fstatSync(fd, { bigint: true });
  const stamp = stampOfStats(before);
  return same(stamp, stampOfStats(after), 'both') ? stamp : undefined;
}

/** Whether file `name` in `dir` has exactly stamp `stamp` (its bytes are then those that were verified when it was taken). */
export function unchangedSince(dir: string, name: string, stamp: FileStamp | undefined): boolean {
  const now = stamp && stampOf(join(dir, name));
  return now !== undefined && same(now, stamp!, 'both');
}

/**
 * The stamps to record for snapshot folder `dir` once it is served and older snapshots are removed
 * (links made and removed change a file's change time): for each file verified (by `verified`'s
 * stamp), the file of that name in `dir` now, when it is that file (device, inode, size and
 * modification time: the same bytes, linked); a file written by the build, or one changed since it
 * was checked, is left out, and hashed by the next rebuild.
 */
export function stampsToRecord(dir: string, verified: FileStamps): FileStamps {
  const stamps: Record<string, FileStamp> = {};
  for (const [name, stamp] of Object.entries(verified)) {
    const now = stampOf(join(dir, name));
    if (now !== undefined && same(now, stamp, 'modification')) stamps[name] = now;
  }
  return stamps;
}

/** Whether `value` has the shape of FileStamps (built-from.json is read from disk). */
export function isFileStamps(value: unknown): value is FileStamps {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((s) => Array.isArray(s) && s.length === 5 && typeof s[0] === 'string' && typeof s[1] === 'string'
    && typeof s[2] === 'number' && typeof s[3] === 'string' && typeof s[4] === 'string');
}
