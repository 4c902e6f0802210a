// The atomic swap of `current`, and a lock so two builds never race on it.
import { closeSync, openSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Points `current` at a snapshot: a new symlink renamed over the old one, so readers see one or the other. */
export function swapCurrent(root: string, id: string): void {
  const temp = join(root, `.current-${process.pid}`);
  rmSync(temp, { force: true });
  symlinkSync(id, temp);
  renameSync(temp, join(root, 'current'));
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

export async function withBuildLock<T>(root: string, work: () => Promise<T>): Promise<T> {
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
  writeSync(fd, String(process.pid));
  closeSync(fd);
  try {
    return await work();
  } finally {
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
}

const BUILT_FROM = 'built-from.json';

export function recordBuiltFrom(root: string, builtFrom: BuiltFrom): void {
  const temp = join(root, `.${BUILT_FROM}-${process.pid}`);
  writeFileSync(temp, JSON.stringify(builtFrom));
  renameSync(temp, join(root, BUILT_FROM));
}

export function readBuiltFrom(root: string): BuiltFrom | undefined {
  try {
    return JSON.parse(readFileSync(join(root, BUILT_FROM), 'utf8')) as BuiltFrom;
  } catch {
    return undefined;
  }
}
