// One served catalogue per test file: starts the fixture before the file's tests, with a client
// and the catalogue's ground truth, and closes it after them. With VPA_FRONT=nginx (npm run
// test:nginx), a real nginx stands in front of the origin: the client talks to nginx, and every
// answer must agree with the origin's for the same request (http-client.ts frontDifferences).
import { afterAll, beforeAll } from 'vitest';
import { readTruth, type Truth } from './catalogue-truth.ts';
import { createClient, type Client } from './http-client.ts';
import { startFixture, type CatalogueSource, type Fixture } from './server-fixture.ts';
import { startNginx, type NginxFront } from '../cdn/nginx-front.ts';

export interface Harness {
  readonly fx: Fixture;
  readonly api: Client;
  readonly truth: Truth;
}

/** Registers the hooks; `ready` receives the harness once the server is up. */
export function useServedCatalogue(source: CatalogueSource, ready: (harness: Harness) => void): void {
  let fx: Fixture | undefined;
  let front: NginxFront | undefined;
  beforeAll(async () => {
    if (process.env['VPA_FRONT'] === 'nginx') {
      fx = await startFixture({ ...source, staticFiles: true, env: { ...source.env, TRUST_PROXY: 'true' } });
      front = await startNginx(fx.distDir, [fx.base]);
      ready({ fx, api: createClient(front.base, fx.base), truth: readTruth(fx.catalogue) });
    } else {
      fx = await startFixture(source);
      ready({ fx, api: createClient(fx.base), truth: readTruth(fx.catalogue) });
    }
  });
  afterAll(async () => {
    await front?.close();
    await fx?.close();
  });
}
