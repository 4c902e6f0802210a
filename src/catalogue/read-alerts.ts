// Operator alerts (`alert` records, docs/catalogue.md), read at request time for /v1/status.
import type { Catalogue } from './open-catalogue.ts';

export interface StoredAlert {
  readonly id: string;
  readonly severity: 'info' | 'minor' | 'major' | 'critical';
  readonly title: string;
  readonly message: string;
  readonly startsAt: string;
  readonly endsAt?: string | undefined;
  readonly components: readonly string[];
}

export function readAlerts(db: Catalogue): StoredAlert[] {
  const rows = db.prepare('SELECT * FROM alerts ORDER BY starts_at DESC, id').all() as {
    id: string; severity: StoredAlert['severity']; title: string; message: string; starts_at: string; ends_at: string | null; components: string;
  }[];
  return rows.map((r) => ({
    id: r.id, severity: r.severity, title: r.title, message: r.message, startsAt: r.starts_at,
    ...(r.ends_at !== null && { endsAt: r.ends_at }),
    components: JSON.parse(r.components) as string[],
  }));
}

/** Alerts in force at `now`: started, and not yet ended. */
export const activeAlerts = (alerts: readonly StoredAlert[], now: string): StoredAlert[] =>
  alerts.filter((a) => a.startsAt <= now && (a.endsAt === undefined || a.endsAt > now));
