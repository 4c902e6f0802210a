// The atomic swap of `current`, a lock so two builds never race on it, and what a build keeps and
// removes around it: the snapshots served before (for rollback and for nginx's old workers) and the
// leftovers of builds that were killed (docs/reliability.md, "Builds and the file system").
import type { ChangeLogMark } from '../catalogue/change-log.ts';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, join } from 'node:path';
import { writeAll } from './disk-faults.ts';
import { isFileStamps, type FileStamps, type FollowedStamps } from './file-stamps.ts';

/** Points `current` at a snapshot: a new symlink renamed over the old one, so readers see one or the other. */
export function swapCurrent(root: string, id: string): void {
  const temp = join(root, `.current-${process.pid}`);
  rmSync(temp, { force: true });
  try {
    symlinkSync(id, temp);
    renameSync(temp, join(root, 'current'));
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Writes a small file whole: a temporary `<file>-<pid>` renamed over it, removed if anything fails. */
export function writeWhole(file: string, text: string): void {
  const temp = `${file}-${process.pid}`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
}

export function currentSnapshotId(root: string): string | undefined {
  try {
    return readlinkSync(join(root, 'current'));
  } catch {
    return undefined;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The signals that stop a build from outside (Ctrl-C, a service manager, a closed terminal). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `work` holding the build lock. A stop signal while it runs (Ctrl-C half way through a build)
 * calls `onStop`, which removes what this build wrote aside, releases the lock, says so, and ends
 * the process by the same signal: a build stopped that way leaves nothing behind, as a build that
 * fails leaves nothing (docs/reliability.md, "Faults of the file system"). A SIGKILL cannot be
 * caught: its leftovers wait for the next build (removeLeftovers).
 */
export async function withBuildLock<T>(root: string, work: () => Promise<T>, onStop?: () => string[]): Promise<T> {
  const lock = join(root, '.build.lock');
  let fd: number;
  try {
    fd = openSync(lock, 'wx');
  } catch {
    const holder = Number(readFileSync(lock, 'utf8'));
    if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) {
      throw new Error(`another build (process ${holder}) is writing a snapshot; wait for it to finish`);
    }
    rmSync(lock, { force: true });
    fd = openSync(lock, 'wx');
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // the handlers stay until the end: without one, a second Ctrl-C (the terminal's and the one the
    // heap re-run's parent passes on, build.ts) would kill the process half way through the removal
    if (stopping) return;
    stopping = true;
    let removed: string[] = [];
    // the lock first: the folders this build made are then empty and go too; another build that
    // starts meanwhile leaves this live process's folder alone (removeLeftovers)
    rmSync(lock, { force: true });
    try {
      removed = onStop?.() ?? [];
    } finally {
      const served = currentSnapshotId(root);
      process.stderr.write(`build: stopped by ${signal}${removed.length > 0 ? `; removed what it had written aside (${removed.map((r) => basename(r)).join(', ')})` : ''}; ${served === undefined ? 'no snapshot is served' : `snapshot ${served} is served`}\n`);
      for (const s of STOP_SIGNALS) process.off(s, stop);
      // end as the signal would have ended the process, unless someone else listens for it too
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      else process.exit(128 + (constants.signals[signal] ?? 0));
    }
  };
  try {
    try {
      writeAll(fd, Buffer.from(String(process.pid)));
    } finally {
      closeSync(fd);
    }
    for (const s of STOP_SIGNALS) process.on(s, stop);
    return await work();
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, stop);
    rmSync(lock, { force: true });
  }
}

/**
 * Which catalogue revision the current snapshot was built from, kept beside the snapshots rather
 * than in them, so that two builds of the same content stay byte-identical.
 */
export interface BuiltFrom {
  readonly snapshot: string;
  readonly catalogueRevision: string;
  /** the build code that made it (previous-snapshot.ts buildCodeId): its bytes are reused only by the same code */
  readonly code?: string;
  /** where the catalogue's change log stood when it was read (catalogue/change-log.ts): the next build asks what changed since */
  readonly changeLog?: ChangeLogMark;
  /** the stamps of the snapshot's page files this build verified (file-stamps.ts): the next rebuild reads only those whose stamp changed */
  readonly hashed?: FileStamps;
}

const BUILT_FROM = 'built-from.json';

export function recordBuiltFrom(root: string, builtFrom: BuiltFrom): void {
  const temp = join(root, `.${BUILT_FROM}-${process.pid}`);
  try {
    writeFileSync(temp, JSON.stringify(builtFrom));
    renameSync(temp, join(root, BUILT_FROM));
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The stamps recorded for snapshot `id`'s page files (BuiltFrom.hashed), when built-from.json is about it and they have their shape. */
export function stampsOf(root: string, id: string): FileStamps | undefined {
  const builtFrom = readBuiltFrom(root);
  return builtFrom?.snapshot === id && isFileStamps(builtFrom.hashed) ? builtFrom.hashed : undefined;
}

export function readBuiltFrom(root: string): BuiltFrom | undefined {
  try {
    return JSON.parse(readFileSync(join(root, BUILT_FROM), 'utf8')) as BuiltFrom;
  } catch {
    return undefined;
  }
}

/**
 * The snapshots that were served, in the order they became `current` (the last is current), kept in
 * `served.json` beside them: pruning keeps the ones served most recently, however old their
 * directories are, and never counts a snapshot that no build swapped in.
 */
const SERVED = 'served.json';
/** entries kept in served.json: far more than any build keeps */
const SERVED_HISTORY = 32;

export function readServed(root: string): string[] | undefined {
  try {
    const ids = JSON.parse(readFileSync(join(root, SERVED), 'utf8')) as unknown;
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string' && SNAPSHOT_ID.test(id)) ? ids as string[] : undefined;
  } catch {
    return undefined;
  }
}

/** Records that `id` is about to become current (the one served before it is kept in the record). */
export function recordServed(root: string, id: string): void {
  const before = readServed(root) ?? [];
  const previous = currentSnapshotId(root);
  // a dist/ from before the record: the snapshot served now is its first entry
  const history = before.length === 0 && previous !== undefined && previous !== id ? [previous] : before;
  const next = [...history.filter((x) => x !== id), id].slice(-SERVED_HISTORY);
  writeWhole(join(root, SERVED), JSON.stringify(next));
}

export const SNAPSHOT_ID = /^[0-9a-f]{16}$/;

/**
 * Removes every snapshot but the current one and the `keep` served most recently before it. A
 * snapshot no build swapped in (not in served.json) is removed whatever its age; without a record
 * (a dist/ from before it), the newest directories are kept instead.
 */
/**
 * With `followed`, the files a snapshot removed shares with the current one (the same inode) are
 * unlinked one by one first, their stamps followed (file-stamps.ts): each unlink changes the change
 * time of the current snapshot's file.
 */
export function pruneSnapshots(root: string, currentId: string, keep: number, followed?: FollowedStamps): string[] {
  const others = readdirSync(root).filter((name) => SNAPSHOT_ID.test(name) && name !== currentId);
  const served = readServed(root);
  const kept = served === undefined
    ? others.map((name) => ({ name, mtime: statSync(join(root, name)).mtimeMs })).sort((a, b) => b.mtime - a.mtime).slice(0, keep).map((o) => o.name)
    : served.filter((id) => id !== currentId && others.includes(id)).reverse().slice(0, keep);
  const removed = others.filter((name) => !kept.includes(name));
  for (const name of removed) {
    const dir = join(root, name);
    if (followed) {
      for (const file of readdirSync(dir)) if (followed.holds(file, join(dir, file))) followed.unlink(file, join(dir, file), join(root, currentId, file));
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return removed;
}

/**
 * Removes what builds that died left behind: half-written snapshot folders (`.building-<pid>-*`),
 * link and record temporaries (`.current-<pid>`, `.built-from.json-<pid>`, `served.json-<pid>`,
 * `deployment.json-<pid>`, a changes list's `<id>.txt-<pid>`, the file stamps' clock file
 * `.stamp-clock-<pid>-<thread>`: file-stamps.ts). Run under the build lock: an entry
 * is a leftover when its process is gone, or is this one (a previous build of this process, or a
 * killed build whose process id this one got after a restart). With `only: 'own'`, this process's
 * alone (a build stopped by a signal, withBuildLock).
 */
export function removeLeftovers(distDir: string, root: string, changes: string, only: 'dead and own' | 'own' = 'dead and own'): string[] {
  const removed: string[] = [];
  const sweep = (dir: string, pattern: RegExp) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const pid = pattern.exec(name)?.slice(1).find((group) => group !== undefined);
      if (pid === undefined || (Number(pid) !== process.pid && (only === 'own' || processAlive(Number(pid))))) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(join(dir, name));
    }
  };
  sweep(root, /^\.building-(\d+)-\d+(?:-damaged)?$|^\.current-(\d+)$|^\.built-from\.json-(\d+)$|^served\.json-(\d+)$|^\.stamp-clock-(\d+)-\d+$/);
  sweep(distDir, /^deployment\.json-(\d+)$/);
  sweep(changes, /^[0-9a-f]{16}\.txt-(\d+)$/);
  return removed;
}
