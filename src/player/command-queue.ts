// Commands run one after another, in the order they came, each to its end (a quality switch
// included, until the new media has its metadata and the old position) before the next starts:
// a pause sent while a switch is loading then pauses the new media instead of being undone by it.

export interface CommandQueue {
  /** runs `task` after every task enqueued before it has settled; resolves or rejects as it does */
  run<T>(task: () => T | Promise<T>): Promise<T>;
  /** tasks enqueued and not yet settled */
  readonly size: number;
}

export function createCommandQueue(): CommandQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let size = 0;
  return {
    run<T>(task: () => T | Promise<T>): Promise<T> {
      size += 1;
      const result = tail.then(task).finally(() => { size -= 1; });
      tail = result.catch(() => {});
      return result;
    },
    get size() { return size; },
  };
}
