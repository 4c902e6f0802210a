// startCatalogueThread (src/server/catalogue-thread.ts): named operations run in a real worker thread
// on the catalogue file, answers and failures (with their kind) passed back; the event loop stays
// free while the thread waits for another connection's lock.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/catalogue/api-keys.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { CatalogueOperationError, startCatalogueThread, type CatalogueThread } from '../../../src/server/catalogue-thread.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
const threads: CatalogueThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
  dirs.cleanup();
});

function threadOn(path: string, options: { busyTimeoutMs?: number; timeoutMs?: number } = {}): CatalogueThread {
  const thread = startCatalogueThread(path, options);
  threads.push(thread);
  return thread;
}

const failureOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueOperationError);
    return (error as CatalogueOperationError).failure;
  }
  throw new Error('the operation did not fail');
};

describe('startCatalogueThread', () => {
  it('runs reads and writes by name on the catalogue file', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    const db = openCatalogue(path);
    const app = createApp(db, 'A', '2026-03-01T00:00:00Z');
    db.close();
    const thread = threadOn(path);
    expect((await thread.run('keys', undefined)).map((k) => k.appId)).toEqual([app.appId]);
    await thread.run('add-usage', [{ appId: app.appId, day: '2026-03-01', endpoint: '/v1/videos', requests: 4 }]);
    expect(await thread.run('usage', app.appId)).toEqual([{ appId: app.appId, day: '2026-03-01', endpoint: '/v1/videos', requests: 4 }]);
  });

  it('fails with the kind of what is wrong: a missing file, a lock held by another connection', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    expect(await failureOf(threadOn(path).run('keys', undefined))).toMatchObject({ kind: 'missing' });

    openCatalogue(path).close();
    const locker = new Database(path);
    locker.exec('BEGIN EXCLUSIVE');
    locker.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('lock', 'held')").run();
    try {
      const thread = threadOn(path, { busyTimeoutMs: 200 });
      // while the thread waits for the lock, the event loop keeps turning
      let turns = 0;
      const ticker = setInterval(() => turns++, 10);
      const failure = await failureOf(thread.run('add-usage', [{ appId: 'app_x', day: '2026-03-01', endpoint: '/v1/videos', requests: 1 }]));
      clearInterval(ticker);
      expect(failure).toMatchObject({ kind: 'locked', message: expect.stringMatching(/SQLITE_BUSY/) });
      expect(turns).toBeGreaterThanOrEqual(5);
    } finally {
      locker.exec('COMMIT');
      locker.close();
    }
  });

  it('refuses operations once closed', async () => {
    const path = join(dirs.make(), 'catalogue.db');
    openCatalogue(path).close();
    const thread = threadOn(path);
    await thread.run('live', undefined);
    await thread.close();
    expect(await failureOf(thread.run('live', undefined))).toMatchObject({ kind: 'unreadable', message: expect.stringMatching(/closed/) });
  });
});
