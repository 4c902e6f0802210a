// createStatusChecks (src/server/status-checks.ts): each component's status from its source — the
// snapshot (loaded, built from the catalogue's current revision), the catalogue (there, this
// service's, readable), the search index, the share of faults, the event loop — since when each has
// had its status, and the operator alerts in force, read from the catalogue by a real catalogue
// thread (driven by hand here with ready(); the server reads every 5 s).
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { markRevision } from '../../../src/catalogue/revision.ts';
import type { CatalogueFailure } from '../../../src/server/catalogue-connection.ts';
import { startCatalogueThread, type CatalogueThread } from '../../../src/server/catalogue-thread.ts';
import type { HealthMonitor } from '../../../src/server/service-health.ts';
import type { SnapshotHolder, SnapshotProblem } from '../../../src/server/snapshot-holder.ts';
import type { Snapshot } from '../../../src/server/snapshot-store.ts';
import { createStatusChecks, type StatusSources } from '../../../src/server/status-checks.ts';
import { recordBuiltFrom } from '../../../src/snapshot/swap.ts';
import { tempDirs, writeRecords, type Raw } from '../support/fixtures.ts';

const dirs = tempDirs();
const closers: (() => void)[] = [];
const threads: CatalogueThread[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await Promise.all(threads.splice(0).map((t) => t.close()));
  dirs.cleanup();
});

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const SNAPSHOT_ID = 'snap0001';

/** Writes records to the catalogue and gives it a new revision, as an import does; returns the revision. */
function writeCatalogue(path: string, raws: readonly Raw[] = []): string {
  const db = openCatalogue(path);
  try {
    writeRecords(db, raws);
    return markRevision(db);
  } finally {
    db.close();
  }
}

const snapshotHolder = (current: Snapshot | undefined, problem?: SnapshotProblem): SnapshotHolder => ({ current, problem, loading: undefined, refresh: async () => false, ready: Promise.resolve(), loaded: Promise.resolve(), tell: () => {}, close: () => {} });
const fakeSnapshot = (id = SNAPSHOT_ID, faults = { count: 0, last: undefined as string | undefined }): Snapshot =>
  ({ id, builtAt: T0 - 3 * 3_600_000, info: { id, videos: 12, pages: 34, loadedAt: '2026-03-01T09:00:00Z' }, faults }) as unknown as Snapshot;

function fakeMonitor() {
  const state = { total: 0, failed: 0, p99: 3, max: 8 };
  const monitor: HealthMonitor = {
    record: () => {},
    errors: () => ({ total: state.total, failed: state.failed, seconds: 300 }),
    eventLoop: () => ({ p99: state.p99, max: state.max }),
    close: () => {},
  };
  return { monitor, state };
}

interface Setup {
  raws?: readonly Raw[];
  snapshot?: Snapshot | undefined;
  builtFrom?: 'current' | 'other' | 'none';
  problem?: SnapshotProblem;
  over?: Partial<StatusSources>;
}

async function setup(options: Setup = {}) {
  const { raws = [], builtFrom = 'current', over = {} } = options;
  const snapshot = 'snapshot' in options ? options.snapshot : fakeSnapshot();
  const dir = dirs.make();
  const catalogueDb = join(dir, 'catalogue.db');
  const snapshotRoot = dirs.make();
  const revision = writeCatalogue(catalogueDb, raws);
  if (builtFrom !== 'none') recordBuiltFrom(snapshotRoot, { snapshot: SNAPSHOT_ID, catalogueRevision: builtFrom === 'current' ? revision : 'older-revision' });
  const clock = { now: T0 };
  const { monitor, state } = fakeMonitor();
  const failures: (CatalogueFailure | undefined)[] = [];
  const catalogue = startCatalogueThread(catalogueDb);
  threads.push(catalogue);
  const checks = createStatusChecks({
    catalogue, snapshotRoot, snapshots: snapshotHolder(snapshot, options.problem), monitor, catalogueFailures: () => failures, now: () => clock.now, poll: false, ...over,
  });
  closers.push(checks.close);
  await checks.ready();
  const statusOf = (id: string) => checks.report().components.find((c) => c.id === id);
  return { checks, clock, monitor: state, failures, catalogueDb, dir, statusOf };
}

const alert = (id: string, startsAt: string, endsAt?: string): Raw =>
  ({ kind: 'alert', id, severity: 'minor', title: id, message: id, startsAt, ...(endsAt !== undefined && { endsAt }), components: ['search'] });

describe('createStatusChecks', () => {
  it('reports snapshot, catalogue, errors and event loop, all operational, when all is well', async () => {
    const { checks } = await setup();
    const report = checks.report();
    expect(report.checkedAt).toBe('2026-03-01T12:00:00Z');
    expect(report.components.map((c) => [c.id, c.status])).toEqual([
      ['snapshot', 'operational'], ['catalogue', 'operational'], ['errors', 'operational'], ['event-loop', 'operational'],
    ]);
    expect(report.components[0]?.detail).toBe('Snapshot snap0001: 34 pages, 12 videos, built 3 h ago, loaded at 2026-03-01T09:00:00Z.');
    expect(report.alerts).toEqual([]);
  });

  it('reports a snapshot outage when none is loaded', async () => {
    const { statusOf } = await setup({ snapshot: undefined });
    expect(statusOf('snapshot')).toMatchObject({ status: 'outage', detail: expect.stringMatching(/No snapshot is loaded/) });
  });

  it('names a refused snapshot while the previous one keeps serving, as degraded', async () => {
    const problem = { id: 'bbbbbbbbbbbbbbbb', reason: 'model.ndjson is missing' };
    const detail = (await setup({ problem })).statusOf('snapshot');
    expect(detail).toMatchObject({ status: 'degraded', detail: expect.stringContaining(`Snapshot ${SNAPSHOT_ID}:`) });
    expect(detail?.detail).toContain('Snapshot bbbbbbbbbbbbbbbb (current) is not served: model.ndjson is missing. The snapshot above keeps serving.');
  });

  it('names the refused snapshot in the outage when no intact one is left', async () => {
    const problem = { id: 'bbbbbbbbbbbbbbbb', reason: 'pages.bin holds 10 bytes, not the 20 the manifest records (truncated or partly copied)' };
    expect((await setup({ snapshot: undefined, problem })).statusOf('snapshot')).toMatchObject({
      status: 'outage', detail: expect.stringContaining('Snapshot bbbbbbbbbbbbbbbb (current) is not served: pages.bin holds 10 bytes'),
    });
  });

  it('reports page reads refused on the served snapshot, naming the file and not a path', async () => {
    const snapshot = fakeSnapshot(SNAPSHOT_ID, { count: 3, last: 'pages.bin: ends at byte 100, before the 40 bytes at 90 the manifest names (truncated?)' });
    const detail = (await setup({ snapshot })).statusOf('snapshot');
    expect(detail).toMatchObject({ status: 'degraded', detail: expect.stringContaining('3 page reads were refused (answered 503), the last because pages.bin: ends at byte 100') });
    expect(detail?.detail).not.toContain('/');
  });

  it('reports no search component while no snapshot is loaded (not "predates search")', async () => {
    expect((await setup({ snapshot: undefined, over: { searchLoaded: () => undefined } })).statusOf('search')).toBeUndefined();
  });

  it('reports the snapshot degraded when the catalogue changed since the build, from the next read of the revision', async () => {
    const { statusOf, checks, catalogueDb } = await setup();
    expect(statusOf('snapshot')?.status).toBe('operational');
    writeCatalogue(catalogueDb);
    expect(statusOf('snapshot')?.status).toBe('operational');
    await checks.ready();
    expect(statusOf('snapshot')).toMatchObject({ status: 'degraded', detail: expect.stringMatching(/catalogue has changed since it was built: run npm run build/) });
  });

  it('does not call the snapshot stale when the built-from record is missing or names another snapshot', async () => {
    expect((await setup({ builtFrom: 'none' })).statusOf('snapshot')?.status).toBe('operational');
    expect((await setup({ builtFrom: 'other', snapshot: fakeSnapshot('another') })).statusOf('snapshot')?.status).toBe('operational');
    expect((await setup({ builtFrom: 'other' })).statusOf('snapshot')?.status).toBe('degraded');
  });

  it('reports a missing catalogue as an outage, and does not then call the snapshot stale', async () => {
    const { statusOf, checks, catalogueDb, dir } = await setup();
    renameSync(catalogueDb, join(dir, 'aside.db'));
    await checks.ready();
    expect(statusOf('catalogue')).toMatchObject({ status: 'outage', detail: expect.stringMatching(/^There is no catalogue database at the configured path \(CATALOGUE_DB\); the server never creates one.*The snapshot is served/) });
    expect(statusOf('catalogue')?.detail).not.toContain(dir);
    expect(statusOf('snapshot')?.status).toBe('operational');
    renameSync(join(dir, 'aside.db'), catalogueDb);
    await checks.ready();
    expect(statusOf('catalogue')?.status).toBe('operational');
  });

  it('reports an empty file or a catalogue of another schema as an outage, naming what is wrong and no path', async () => {
    const { statusOf, checks, catalogueDb, dir } = await setup();
    renameSync(catalogueDb, join(dir, 'aside.db'));
    writeFileSync(catalogueDb, '');
    await checks.ready();
    expect(statusOf('catalogue')).toMatchObject({ status: 'outage', detail: expect.stringMatching(/^The file at the configured path \(CATALOGUE_DB\) is not a catalogue of this service/) });
    expect(statusOf('catalogue')?.detail).not.toContain(dir);
    renameSync(join(dir, 'aside.db'), catalogueDb);
    const db = openCatalogue(catalogueDb);
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    db.close();
    await checks.ready();
    expect(statusOf('catalogue')).toMatchObject({ status: 'outage', detail: expect.stringMatching(/older schema; the server never migrates it/) });
  });

  it('reports what another user of the catalogue meets: a lock as degraded, any other failure as an outage', async () => {
    const { statusOf, failures } = await setup();
    failures.push(undefined, { kind: 'locked', message: 'cannot store API usage in the catalogue: database is locked (SQLITE_BUSY)' });
    expect(statusOf('catalogue')).toMatchObject({ status: 'degraded', detail: expect.stringMatching(/^The catalogue database is locked by another process \(SQLITE_BUSY\)/) });
    failures.push({ kind: 'unreadable', message: 'cannot read live state (/srv/data/catalogue.db) from the catalogue: disk I/O error (SQLITE_IOERR)' });
    expect(statusOf('catalogue')).toMatchObject({ status: 'outage', detail: expect.stringMatching(/^The catalogue database cannot be read \(SQLITE_IOERR\)/) });
    expect(statusOf('catalogue')?.detail).not.toContain('/srv/data');
  });

  it('reports the search index only when it is watched', async () => {
    expect((await setup()).statusOf('search')).toBeUndefined();
    expect((await setup({ over: { searchLoaded: () => true } })).statusOf('search')?.status).toBe('operational');
    // outage or degraded: src/search is being built, and that choice with it
    expect((await setup({ over: { searchLoaded: () => false } })).statusOf('search')?.status).not.toBe('operational');
  });

  it('judges the 5xx share only from 20 answers: over 1% degraded, over 10% outage', async () => {
    const { statusOf, monitor } = await setup();
    const cases: [number, number, string][] = [
      [19, 19, 'operational'], [100, 1, 'operational'], [100, 2, 'degraded'], [100, 10, 'degraded'], [100, 11, 'outage'], [20, 20, 'outage'],
    ];
    for (const [total, failed, expected] of cases) {
      Object.assign(monitor, { total, failed });
      expect(statusOf('errors')?.status, `${failed} of ${total}`).toBe(expected);
    }
    expect(statusOf('errors')?.detail).toBe('20 of 20 answers in the last 300 s were faults of the service (100.00%).');
  });

  it('judges the event loop by its p99 delay: over 200 ms degraded, over 1 s outage', async () => {
    const { statusOf, monitor } = await setup();
    const cases: [number, string][] = [[200, 'operational'], [200.1, 'degraded'], [1000, 'degraded'], [1000.1, 'outage']];
    for (const [p99, expected] of cases) {
      monitor.p99 = p99;
      expect(statusOf('event-loop')?.status, String(p99)).toBe(expected);
    }
  });

  it('keeps since when each component has had its status, and moves it when the status changes', async () => {
    const { checks, clock, monitor } = await setup();
    expect(checks.report().since).toMatchObject({ errors: '2026-03-01T12:00:00Z', 'event-loop': '2026-03-01T12:00:00Z' });
    clock.now += 60_000;
    monitor.p99 = 500;
    expect(checks.report().since).toMatchObject({ errors: '2026-03-01T12:00:00Z', 'event-loop': '2026-03-01T12:01:00Z' });
    clock.now += 60_000;
    expect(checks.report().since['event-loop']).toBe('2026-03-01T12:01:00Z');
    monitor.p99 = 0;
    expect(checks.report().since['event-loop']).toBe('2026-03-01T12:02:00Z');
  });

  it('lists the operator alerts in force at the time of the check', async () => {
    const { checks, clock } = await setup({ raws: [
      alert('open', '2026-03-01T11:00:00Z'),
      alert('ended', '2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z'),
      alert('ends-soon', '2026-03-01T11:00:00Z', '2026-03-01T12:00:06Z'),
      alert('later', '2026-03-01T13:00:00Z'),
    ] });
    expect(checks.report().alerts.map((a) => a.id).sort()).toEqual(['ends-soon', 'open']);
    clock.now += 6000;
    expect(checks.report().alerts.map((a) => a.id)).toEqual(['open']);
  });
});
