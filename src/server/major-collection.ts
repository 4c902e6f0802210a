// One V8 major collection, made by a serving process that takes over from another once its
// snapshot is loaded whole and before it listens (start-server.ts `collectBeforeListening`): the
// process before it still serves, so no request waits for it (docs/architecture.md, "The serving
// process's old generation"). The load's garbage goes, and the first burst of requests starts with
// the old generation's whole room (`--heap-growing-percent`, supervise-servers.ts SERVING_NODE_FLAGS).
// Never made while the process may be answering: a full collection stops everything for 0.2 s on
// pyvideo-100k (docs/performance.md, "The first list answers: V8's room after a quiet while").
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gcFunction: (() => void) | undefined;
/**
 * V8's full collection, made callable without `--expose-gc` on the command line (which would put
 * `gc` on every global object of the process): the flag, set for a moment, installs the function in
 * one new context; this one's global object, and the contexts and workers made later, have none.
 */
export function majorCollection(): void {
  if (gcFunction === undefined) {
    setFlagsFromString('--expose-gc');
    try {
      gcFunction = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  gcFunction();
}
