// One served catalogue per test file: starts the fixture before the file's tests, with a client
// and the catalogue's ground truth, and closes it after them.
import { afterAll, beforeAll } from 'vitest';
import { readTruth, type Truth } from './catalogue-truth.ts';
import { createClient, type Client } from './http-client.ts';
import { startFixture, type CatalogueSource, type Fixture } from './server-fixture.ts';

export interface Harness {
  readonly fx: Fixture;
  readonly api: Client;
  readonly truth: Truth;
}

/** Registers the hooks; `ready` receives the harness once the server is up. */
export function useServedCatalogue(source: CatalogueSource, ready: (harness: Harness) => void): void {
  let fx: Fixture | undefined;
  beforeAll(async () => {
    fx = await startFixture(source);
    ready({ fx, api: createClient(fx.base), truth: readTruth(fx.catalogue) });
  });
  afterAll(async () => { await fx?.close(); });
}
