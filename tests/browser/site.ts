// The served demo catalogue for browser tests: one real server per worker (real SQLite, real
// snapshot build, real node:http + Astro), with the catalogue's ground truth for expectations.
import { test as base } from '@playwright/test';
import { readTruth, type Truth } from '../http/catalogue-truth.ts';
import { startFixture } from '../http/server-fixture.ts';
import { startThirdParty, type ThirdParty } from './third-party.ts';

export interface Site {
  readonly base: string;
  readonly truth: Truth;
  /** GET of a JSON API answer from the same server */
  json<T>(path: string): Promise<T>;
}

export const test = base.extend<object, { site: Site; thirdParty: ThirdParty }>({
  site: [async ({}, use) => {
    const fx = await startFixture({ seed: { videos: 300 } });
    const json = async <T>(path: string): Promise<T> => {
      const res = await fetch(fx.base + path);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
      return (await res.json()) as T;
    };
    await use({ base: fx.base, truth: readTruth(fx.catalogue), json });
    await fx.close();
  }, { scope: 'worker' }],
  thirdParty: [async ({}, use) => {
    const blog = await startThirdParty();
    await use(blog);
    await blog.close();
  }, { scope: 'worker' }],
});

export { expect } from '@playwright/test';
