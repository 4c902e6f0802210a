// src/server/verify-worker.ts: the model data handed to the main thread a chunk at a time, every
// chunk once and in order, however the requests for them come: a request that comes before the
// worker's read-ahead has run (the worker held up, the requests queued) must not make it skip one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { VerifyReply, VerifyRequest } from '../../../src/server/verify-worker.ts';
import { buildSnapshot } from '../../../src/snapshot/build-snapshot.ts';
import { layoutOf, MODEL_FILE } from '../../../src/snapshot/layout.ts';
import { BASE_URL, tempDirs } from '../support/fixtures.ts';
import { smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

const CHUNK = 97;

describe('verify-worker', () => {
  it('sends every chunk of the model data once and in order, when requests queue up before its read-ahead runs', async () => {
    const dir = dirs.make();
    const catalogue = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
    const { id } = await buildSnapshot({ catalogue, distDir: join(dir, 'dist'), baseUrl: BASE_URL });
    const snapshotDir = join(layoutOf(join(dir, 'dist')).root, id);
    const expected = readFileSync(join(snapshotDir, MODEL_FILE));
    expect(expected.length).toBeGreaterThan(20 * CHUNK);

    const request: VerifyRequest = { dir: snapshotDir, id, options: { cacheBytes: 1 << 30, baseUrl: BASE_URL }, chunkBytes: CHUNK };
    const worker = new Worker(new URL('../../../src/server/verify-worker.ts', import.meta.url), { workerData: request });
    try {
      const replies: VerifyReply[] = [];
      let wake: () => void = () => {};
      worker.on('message', (reply: VerifyReply) => {
        replies.push(reply);
        wake();
      });
      const next = async (): Promise<VerifyReply> => {
        while (replies.length === 0) await new Promise<void>((resolve) => { wake = resolve; });
        return replies.shift()!;
      };
      // three requests queued before the worker has even answered with the manifest: it takes
      // them in one go, before any read-ahead of its runs
      for (let i = 0; i < 3; i++) worker.postMessage({ chunk: MODEL_FILE });
      expect('manifest' in (await next())).toBe(true);
      const chunks: Buffer[] = [];
      let asked = 3;
      for (let turn = 0; turn < 10_000; turn++) {
        const reply = await next();
        expect('chunkOf' in reply, JSON.stringify(reply)).toBe(true);
        const bytes = (reply as { bytes: Uint8Array | null }).bytes;
        if (bytes === null) break;
        chunks.push(Buffer.from(bytes));
        if (--asked === 0) {
          // then one request at a time, each after the answer before it, as the server asks
          worker.postMessage({ chunk: MODEL_FILE });
          asked = 1;
        }
      }
      expect(Buffer.concat(chunks).equals(expected)).toBe(true);
      expect(chunks.every((c) => c.length <= CHUNK)).toBe(true);
    } finally {
      await worker.terminate();
    }
  });
});
