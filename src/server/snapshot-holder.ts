// Holds the snapshot being served and follows `current`: when a build swaps it, the new snapshot
// is loaded aside and then replaces the old one in a single assignment. Requests already running
// keep the snapshot they started with; a snapshot that fails to load leaves the old one serving.
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { currentSnapshotId } from '../snapshot/swap.ts';
import { closeSnapshot, loadSnapshot, type Snapshot } from './snapshot-store.ts';

export interface SnapshotHolder {
  readonly current: Snapshot | undefined;
  /** Loads `current` if it changed; true when a new snapshot was swapped in. */
  refresh(): boolean;
  close(): void;
}

export function holdSnapshots(root: string, cacheBytes: number, log: (message: string) => void): SnapshotHolder {
  let current: Snapshot | undefined;
  let failedId: string | undefined;
  const refresh = (): boolean => {
    const id = currentSnapshotId(root);
    if (id === undefined || id === current?.id || id === failedId) return false;
    try {
      const started = performance.now();
      const next = loadSnapshot(join(root, id), id, cacheBytes);
      const previous = current;
      current = next;
      failedId = undefined;
      log(`serving snapshot ${id} (${next.info.pages} pages, ${next.info.videos} videos), loaded in ${Math.round(performance.now() - started)} ms`);
      // Requests that started on the old snapshot finish with it; its file is closed after them.
      if (previous) setTimeout(() => closeSnapshot(previous), 30_000).unref();
      return true;
    } catch (error) {
      failedId = id;
      log(`could not load snapshot ${id}: ${(error as Error).message}; still serving ${current?.id ?? 'nothing'}`);
      return false;
    }
  };
  refresh();
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(root, () => refresh());
  } catch {
    watcher = undefined;
  }
  const poll = setInterval(refresh, 1000);
  poll.unref();
  return {
    get current() {
      return current;
    },
    refresh,
    close() {
      watcher?.close();
      clearInterval(poll);
      if (current) closeSnapshot(current);
    },
  };
}
