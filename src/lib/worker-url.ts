// Where a worker thread's module is. Run from its sources (the tests, the operator scripts), it is
// the TypeScript file beside the module that starts it; in the server as `npm run build:app`
// bundles it (dist/app/start/, docs/architecture.md "The server runs as bundled JavaScript"), every
// module is inlined into one bundle and each worker is a bundle of its own beside it, named after
// its source.
import { posix } from 'node:path';

/** `source` is the worker's file relative to `base`, the starting module's `import.meta.url`. */
export function workerUrl(source: string, base: string): URL {
  return base.endsWith('.ts') ? new URL(source, base) : new URL(`./${posix.basename(source, '.ts')}.mjs`, base);
}
