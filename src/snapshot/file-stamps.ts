// What a build saw of the served page files whose SHA-256 it checked before linking them: each
// file's device, inode, size, modification and change times, kept beside the snapshots
// (built-from.json, swap.ts). The next rebuild takes a served file whose stamp is unchanged as whole
// without reading it again, as git's index does with a file's stat data (docs/reliability.md, "Page
// shards and hard links"). A stamp is only ever one taken when the bytes were read and hashed (the
// same before and after the read, the file last modified in an earlier tick of the file system's
// clock than the read began), or one such stamp found unchanged: it vouches for no byte no build
// verified.
import { fstatSync, linkSync, rmSync, statSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** A file's device, inode, size, modification and change times (ns). */
export type FileStamp = readonly [dev: string, ino: string, size: number, mtimeNs: string, ctimeNs: string];

/** Stamps by file name (a snapshot's page files). */
export type FileStamps = Readonly<Record<string, FileStamp>>;

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

/** The file system's time, read from a file written on it (`.stamp-clock-<pid>-<thread>`, beside the snapshots). */
export interface FileSystemClock {
  readonly dev: bigint;
  readonly ns: bigint;
}

/**
 * The file system's time now, as the modification time of a file written in `dir` (the same clock
 * and granularity as its files'); undefined when it cannot be written (a full disk): nothing is
 * stamped then.
 */
export function fileSystemClock(dir: string): FileSystemClock | undefined {
  const clock = join(dir, `.stamp-clock-${process.pid}-${threadId}`);
  try {
    writeFileSync(clock, '');
    const s = statSync(clock, { bigint: true });
    return { dev: s.dev, ns: s.mtimeNs };
  } catch {
    return undefined;
  } finally {
    rmSync(clock, { force: true });
  }
}

/**
 * The stamp of the file open as `fd` whose bytes are being read: `before` is its fstat before the
 * first read; with `clock` (fileSystemClock of the same file system, read before that), the stamp is
 * given only when the fstat after the last read is the same and the file was last modified in an
 * earlier tick than `clock`, so that any write since the read began shows in its modification time
 * (a write in the same tick as the file's last one would not: git's "racily clean" entries).
 */
export function stampAfterRead(fd: number, before: BigIntStats, clock: FileSystemClock | undefined): FileStamp | undefined {
  if (clock === undefined || before.dev !== clock.dev || before.mtimeNs >= clock.ns) return undefined;
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
 * Stamps followed through the build's own links and unlinks, which change a file's change time: a
 * stamp stays only while the file is exactly as stamped just before each such operation, and then
 * takes the change time it has just after (device, inode, size and modification time unchanged).
 * A write by anyone else, even one that puts the old modification time back, changes the change
 * time between two of them, and the stamp is dropped: it vouches only for the bytes read.
 */
export class FollowedStamps {
  private readonly stamps: Record<string, FileStamp>;

  constructor(verified: FileStamps) {
    this.stamps = { ...verified };
  }

  /** Makes `to` a hard link of `from` (file `name`), following its stamp. */
  link(name: string, from: string, to: string): void {
    this.around(name, from, () => linkSync(from, to), to);
  }

  /** Removes `path`, one more name of file `name` whose other name `kept` stays, following its stamp. */
  unlink(name: string, path: string, kept: string): void {
    this.around(name, kept, () => unlinkSync(path), kept);
  }

  /** Whether `path` is the file stamped as `name` (the same inode): removing it changes that file's change time. */
  holds(name: string, path: string): boolean {
    const stamp = this.stamps[name];
    const now = stamp && stampOf(path);
    return now !== undefined && now[0] === stamp![0] && now[1] === stamp![1];
  }

  /** The stamps of the files of folder `dir` still exactly as followed. */
  of(dir: string): FileStamps {
    const stamps: Record<string, FileStamp> = {};
    for (const [name, stamp] of Object.entries(this.stamps)) if (unchangedSince(dir, name, stamp)) stamps[name] = stamp;
    return stamps;
  }

  private around(name: string, before: string, operation: () => void, after: string): void {
    const stamp = this.stamps[name];
    if (stamp !== undefined && !unchangedSince(dirname(before), basename(before), stamp)) delete this.stamps[name];
    operation();
    const held = this.stamps[name];
    if (held === undefined) return;
    const now = stampOf(after);
    if (now !== undefined && same(now, held, 'modification')) this.stamps[name] = now;
    else delete this.stamps[name];
  }
}

/** Whether `value` has the shape of FileStamps (built-from.json is read from disk). */
export function isFileStamps(value: unknown): value is FileStamps {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((s) => Array.isArray(s) && s.length === 5 && typeof s[0] === 'string' && typeof s[1] === 'string'
    && typeof s[2] === 'number' && typeof s[3] === 'string' && typeof s[4] === 'string');
}
