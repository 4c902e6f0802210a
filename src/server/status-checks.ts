// The service's checks of itself, run when /v1/status is asked (cheap: counters and cached reads):
// the snapshot (loaded, its age, whether the catalogue changed since it was built), the catalogue
// database (there, this service's, readable), the search index (loaded), the share of answers that
// were faults of the service, the event loop's delay. Operator alerts and the catalogue revision
// are read from the database by the catalogue thread every 5 s, in the background.
import type { StatusReport } from '../api/endpoint.ts';
import type { ComponentStatus, StatusComponent } from '../model/schemas.ts';
import { activeAlerts, type StoredAlert } from '../catalogue/read-alerts.ts';
import { readBuiltFrom } from '../snapshot/swap.ts';
import type { CatalogueFailure, FailureKind } from './catalogue-connection.ts';
import { createFeed } from './catalogue-feed.ts';
import type { CatalogueThread } from './catalogue-thread.ts';
import type { HealthMonitor } from './service-health.ts';
import type { SnapshotHolder } from './snapshot-holder.ts';

export const THRESHOLDS = {
  /** share of answers in the window that were faults of the service (service-health.ts): degraded above, outage above */
  errorRate: { degraded: 0.01, outage: 0.1, minimum: 20 },
  /** event-loop delay p99 in ms */
  eventLoop: { degraded: 200, outage: 1000 },
} as const;

export interface StatusSources {
  readonly catalogue: CatalogueThread;
  /** the folder of snapshots (for the revision the current one was built from) */
  readonly snapshotRoot: string;
  readonly snapshots: SnapshotHolder;
  readonly monitor: HealthMonitor;
  /** other users of the catalogue, whose failures are reported too */
  readonly catalogueFailures: () => readonly (CatalogueFailure | undefined)[];
  /** whether the loaded snapshot has its search index (no component when not given, or with no snapshot loaded) */
  readonly searchLoaded?: () => boolean | undefined;
  readonly now?: () => number;
  /** the shared store's component (SHARED_STATE_STORE; none without one) */
  readonly sharedStore?: () => StatusComponent;
  /** the alerts every origin shares (SHARED_STATE_STORE), when any were published: used instead of the catalogue's */
  readonly sharedAlerts?: () => readonly StoredAlert[] | undefined;
  /** false: the alerts and revision are read only by ready() (tests) */
  readonly poll?: boolean;
}

/** The error's code (ENOENT, SQLITE_CORRUPT, ...) for a public answer: never a path or a message. */
const errorCode = (message: string): string => /\b(E[A-Z]{2,}|SQLITE_[A-Z_]+)\b/.exec(message)?.[1] ?? 'read error';

const SERVED = 'The snapshot is served; live state, alerts and developer keys come from the last good read (none when there was none).';

/** The catalogue component for a failure: what is wrong with the file, never its path. */
const CATALOGUE_FAILURES: Readonly<Record<FailureKind, { status: ComponentStatus; detail: (f: CatalogueFailure) => string }>> = {
  missing: { status: 'outage', detail: () => `There is no catalogue database at the configured path (CATALOGUE_DB); the server never creates one: npm run seed or npm run import does. ${SERVED}` },
  foreign: { status: 'outage', detail: () => `The file at the configured path (CATALOGUE_DB) is not a catalogue of this service (empty, or without its tables); the server leaves it as it is. ${SERVED}` },
  outdated: { status: 'outage', detail: () => `The catalogue database has an older schema; the server never migrates it: any operator command that writes it (npm run keys -- list) does. ${SERVED}` },
  newer: { status: 'outage', detail: () => `The catalogue database was made by a newer version of this service than the one running. ${SERVED}` },
  locked: { status: 'degraded', detail: (f) => `The catalogue database is locked by another process (${errorCode(f.message)}); reads and writes are retried every few seconds and API usage is kept until it can be stored. ${SERVED}` },
  unreadable: { status: 'outage', detail: (f) => `The catalogue database cannot be read (${errorCode(f.message)}); the server log has the details. ${SERVED}` },
};

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function age(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

export function createStatusChecks(sources: StatusSources): { report(): StatusReport; ready(): Promise<void>; close(): void } {
  const now = sources.now ?? Date.now;
  const feed = createFeed(() => sources.catalogue.run('status', undefined), { ttlMs: 5000, label: 'alerts', log: () => {}, now, poll: sources.poll });
  const since = new Map<string, { status: ComponentStatus; since: string }>();

  function component(id: string, name: string, status: ComponentStatus, detail: string): StatusComponent {
    return { id, name, status, detail };
  }

  return {
    report() {
      const t = now();
      const checkedAt = iso(t);
      const stored = feed.get({ alerts: [], revision: 'unknown' });
      const snapshot = sources.snapshots.current;
      const components: StatusComponent[] = [];

      const problem = sources.snapshots.problem;
      const refusal = problem && `Snapshot ${problem.id} (current) is not served: ${problem.reason}.`;
      const loading = problem !== undefined && sources.snapshots.loading === problem.id;
      if (!snapshot) {
        components.push(component('snapshot', 'Snapshot', 'outage', loading
          ? `No snapshot is loaded yet: snapshot ${problem.id} is being verified and loaded.`
          : refusal
          ? `No snapshot is loaded. ${refusal} No intact snapshot was found beside it: the API answers 503 until npm run build makes one.`
          : 'No snapshot is loaded: the API answers 503 until npm run build makes one.'));
      } else {
        const builtFrom = readBuiltFrom(sources.snapshotRoot);
        const stale = feed.failure === undefined && builtFrom !== undefined && builtFrom.snapshot === snapshot.id && builtFrom.catalogueRevision !== stored.revision;
        const about = `Snapshot ${snapshot.id}: ${snapshot.info.pages} pages, ${snapshot.info.videos} videos, built ${age(t - snapshot.builtAt)} ago, loaded at ${snapshot.info.loadedAt}.`;
        const faults = snapshot.faults.count > 0
          ? ` ${snapshot.faults.count} page read${snapshot.faults.count === 1 ? ' was' : 's were'} refused (answered 503), the last because ${snapshot.faults.last}: rebuild or copy the snapshot again.`
          : '';
        const refused = refusal ? ` ${refusal} The snapshot above keeps serving.` : '';
        const degraded = stale || faults !== '' || (refused !== '' && !loading);
        components.push(component('snapshot', 'Snapshot', degraded ? 'degraded' : 'operational',
          `${about}${refused}${faults}${stale ? ' The catalogue has changed since it was built: run npm run build.' : ''}`));
      }

      const failures = [feed.failure, ...sources.catalogueFailures()].filter((f): f is CatalogueFailure => f !== undefined);
      // the worst failure speaks: an outage before a lock
      const failure = failures.find((f) => CATALOGUE_FAILURES[f.kind].status === 'outage') ?? failures[0];
      components.push(failure
        ? component('catalogue', 'Catalogue database', CATALOGUE_FAILURES[failure.kind].status, CATALOGUE_FAILURES[failure.kind].detail(failure))
        : component('catalogue', 'Catalogue database', 'operational', 'The catalogue database is readable.'));

      if (sources.sharedStore) components.push(sources.sharedStore());

      const search = sources.searchLoaded?.();
      if (search !== undefined) {
        components.push(search
          ? component('search', 'Search index', 'operational', 'The search index of the loaded snapshot is in memory.')
          : component('search', 'Search index', 'degraded', 'The loaded snapshot has no search index (it predates search): the first query builds one, slowly. Run npm run build.'));
      }

      const { total, failed, seconds } = sources.monitor.errors();
      const rate = total === 0 ? 0 : failed / total;
      const rateStatus: ComponentStatus = total < THRESHOLDS.errorRate.minimum ? 'operational'
        : rate > THRESHOLDS.errorRate.outage ? 'outage' : rate > THRESHOLDS.errorRate.degraded ? 'degraded' : 'operational';
      components.push(component('errors', 'Server errors', rateStatus,
        `${failed} of ${total} answers in the last ${seconds} s were faults of the service (${(rate * 100).toFixed(2)}%).`));

      const loop = sources.monitor.eventLoop();
      const loopStatus: ComponentStatus = loop.p99 > THRESHOLDS.eventLoop.outage ? 'outage' : loop.p99 > THRESHOLDS.eventLoop.degraded ? 'degraded' : 'operational';
      components.push(component('event-loop', 'Event loop', loopStatus,
        `Event-loop delay over the last minute: p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms.`));

      for (const c of components) {
        const before = since.get(c.id);
        if (!before || before.status !== c.status) since.set(c.id, { status: c.status, since: checkedAt });
      }
      return {
        checkedAt,
        components,
        since: Object.fromEntries([...since].map(([id, s]) => [id, s.since])),
        alerts: activeAlerts(sources.sharedAlerts?.() ?? stored.alerts, checkedAt),
      };
    },
    ready: feed.refresh,
    close: feed.close,
  };
}
