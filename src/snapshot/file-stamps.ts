// What a build saw of the files whose SHA-256 it verified or wrote: each file's device, inode, size
// and modification time, kept beside the snapshots (built-from.json, swap.ts). The next build takes a
// served page file whose stamp is unchanged as whole without reading it again, as git's index
// does (docs/reliability.md, "Page shards and hard links"): any write to a file, a truncation, or
// a copy put in its place changes its stamp, and the file is hashed as before.
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A file's device, inode, size and modification time (ns), as statSync gives them. */
export type FileStamp = readonly [dev: string, ino: string, size: number, mtimeNs: string];

/** The stamps of a snapshot's files, by name, and when they were taken (ns since the epoch, by the file system's clock). */
export interface FileStamps {
  readonly at: string;
  readonly files: Readonly<Record<string, FileStamp>>;
}

/** The file written beside the snapshots to read the file system's clock (its modification time) when stamps are taken. */
export const CLOCK_FILE_PREFIX = '.stamp-clock-';

function stampOf(file: string): FileStamp | undefined {
  try {
    const s = statSync(file, { bigint: true });
    return s.isFile() ? [String(s.dev), String(s.ino), Number(s.size), String(s.mtimeNs)] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stamps of the files `names` in `dir` (a file that cannot be read is left out), and the file
 * system's time now, read from a file written in `clockDir` (its modification time has the same
 * clock and granularity as theirs).
 */
export function stampFiles(dir: string, names: Iterable<string>, clockDir: string): FileStamps {
  const clock = join(clockDir, `${CLOCK_FILE_PREFIX}${process.pid}`);
  let at: bigint;
  try {
    writeFileSync(clock, '');
    at = statSync(clock, { bigint: true }).mtimeNs;
  } finally {
    rmSync(clock, { force: true });
  }
  const files: Record<string, FileStamp> = {};
  for (const name of names) {
    const stamp = stampOf(join(dir, name));
    if (stamp) files[name] = stamp;
  }
  return { at: String(at), files };
}

/**
 * Whether file `name` in `dir` is the file its stamp saw, of `size` bytes, last modified in an
 * earlier tick of the file system's clock than the stamp was taken in: its bytes are then those the
 * stamping build verified. A file modified in the same tick is not trusted (a write later in that
 * tick would leave its stamp as it was: git's "racily clean" entries); it is hashed again by the
 * next build, and stamped then.
 */
export function unchangedSinceStamped(dir: string, name: string, size: number, stamps: FileStamps | undefined): boolean {
  const stamped = stamps?.files[name];
  if (stamped === undefined || stamped[2] !== size) return false;
  let settled: boolean;
  try {
    settled = BigInt(stamped[3]) < BigInt(stamps!.at);
  } catch {
    return false;
  }
  if (!settled) return false;
  const now = stampOf(join(dir, name));
  return now !== undefined && now[0] === stamped[0] && now[1] === stamped[1] && now[2] === stamped[2] && now[3] === stamped[3];
}

/** Whether `value` has the shape of FileStamps (built-from.json is read from disk). */
export function isFileStamps(value: unknown): value is FileStamps {
  if (typeof value !== 'object' || value === null) return false;
  const { at, files } = value as { at?: unknown; files?: unknown };
  if (typeof at !== 'string' || typeof files !== 'object' || files === null) return false;
  return Object.values(files).every((s) => Array.isArray(s) && s.length === 4 && typeof s[0] === 'string' && typeof s[1] === 'string' && typeof s[2] === 'number' && typeof s[3] === 'string');
}
