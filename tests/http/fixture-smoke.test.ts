import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './server-fixture.ts';

let fx: Fixture;
beforeAll(async () => { fx = await startFixture({ ndjson: 'tests/fixtures/pyvideo-excerpt.ndjson.gz' }); });
afterAll(async () => { await fx.close(); });

describe('fixture', () => {
  it('serves the video list from a freshly built snapshot', async () => {
    const res = await fetch(`${fx.base}/v1/videos`);
    expect(res.status).toBe(200);
    const body = await res.json() as { paging: { total: number } };
    expect(body.paging.total).toBe(451);
  });
});
