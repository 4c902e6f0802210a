// The service's checks of itself, run when /v1/status is asked (cheap: counters and cached reads):
// the snapshot (loaded, its age, whether the catalogue changed since it was built), the catalogue
// database (readable), the search index (loaded), the share of 5xx answers, the event loop's delay.
// Operator alerts and the catalogue revision are read from the database, kept 5 s.
import type { StatusReport } from '../api/endpoint.ts';
import type { ComponentStatus, StatusComponent } from '../api/schemas.ts';
import { activeAlerts, readAlerts } from '../catalogue/read-alerts.ts';
import { readRevision } from '../catalogue/revision.ts';
import { readBuiltFrom } from '../snapshot/swap.ts';
import { followCatalogue } from './catalogue-connection.ts';
import { createFeed } from './catalogue-feed.ts';
import type { HealthMonitor } from './service-health.ts';
import type { SnapshotHolder } from './snapshot-holder.ts';

export const THRESHOLDS = {
  /** 5xx share of answers in the window: degraded above, outage above */
  errorRate: { degraded: 0.01, outage: 0.1, minimum: 20 },
  /** event-loop delay p99 in ms */
  eventLoop: { degraded: 200, outage: 1000 },
} as const;

export interface StatusSources {
  readonly catalogueDb: string;
  /** the folder of snapshots (for the revision the current one was built from) */
  readonly snapshotRoot: string;
  readonly snapshots: SnapshotHolder;
  readonly monitor: HealthMonitor;
  /** other readers of the catalogue, whose errors make it unreadable too */
  readonly catalogueErrors: () => readonly (string | undefined)[];
  /** whether the loaded snapshot has its search index (no component when not given, or with no snapshot loaded) */
  readonly searchLoaded?: () => boolean | undefined;
  readonly now?: () => number;
}

/** The error's code (ENOENT, SQLITE_CORRUPT, ...) for a public answer: never a path or a message. */
const errorCode = (message: string): string => /\b(E[A-Z]{2,}|SQLITE_[A-Z_]+)\b/.exec(message)?.[1] ?? 'read error';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function age(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

export function createStatusChecks(sources: StatusSources): { report(): StatusReport; close(): void } {
  const now = sources.now ?? Date.now;
  const connection = followCatalogue(sources.catalogueDb, { readonly: true });
  const feed = createFeed(connection, (db) => ({ alerts: readAlerts(db), revision: readRevision(db) }),
    { ttlMs: 5000, label: 'alerts', log: () => {}, now });
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
        const stale = feed.error === undefined && builtFrom !== undefined && builtFrom.snapshot === snapshot.id && builtFrom.catalogueRevision !== stored.revision;
        const about = `Snapshot ${snapshot.id}: ${snapshot.info.pages} pages, ${snapshot.info.videos} videos, built ${age(t - snapshot.builtAt)} ago, loaded at ${snapshot.info.loadedAt}.`;
        const faults = snapshot.faults.count > 0
          ? ` ${snapshot.faults.count} page read${snapshot.faults.count === 1 ? ' was' : 's were'} refused (answered 503), the last because ${snapshot.faults.last}: rebuild or copy the snapshot again.`
          : '';
        const refused = refusal ? ` ${refusal} The snapshot above keeps serving.` : '';
        const degraded = stale || faults !== '' || (refused !== '' && !loading);
        components.push(component('snapshot', 'Snapshot', degraded ? 'degraded' : 'operational',
          `${about}${refused}${faults}${stale ? ' The catalogue has changed since it was built: run npm run build.' : ''}`));
      }

      const errors = [feed.error, ...sources.catalogueErrors()].filter((e): e is string => e !== undefined);
      components.push(errors.length > 0
        ? component('catalogue', 'Catalogue database', 'outage', `The catalogue database cannot be read (${errorCode(errors[0]!)}); the server log has the details. Live state, alerts and developer keys are served from the last good read.`)
        : component('catalogue', 'Catalogue database', 'operational', 'The catalogue database is readable.'));

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
        `${failed} of ${total} answers in the last ${seconds} s were 5xx (${(rate * 100).toFixed(2)}%).`));

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
        alerts: activeAlerts(stored.alerts, checkedAt),
      };
    },
    close: connection.close,
  };
}
