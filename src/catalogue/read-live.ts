// Live-stream records, as the public may see them: every channel is public, so the only rule is
// to keep each field to the state it belongs to (`startedAt`/`viewers` when live, `scheduledFor`
// when upcoming). Read by the build for the snapshot and by the server at request time.
import type { PublicLiveStream } from './public-catalogue.ts';
import type { Catalogue } from './open-catalogue.ts';

interface LiveRow {
  channel: string; state: PublicLiveStream['state']; title: string | null;
  started_at: string | null; scheduled_for: string | null; viewers: number | null;
}

export function readLiveStreams(db: Catalogue): PublicLiveStream[] {
  const rows = db.prepare('SELECT * FROM live_streams ORDER BY channel').all() as LiveRow[];
  return rows.map((row) => ({
    channel: row.channel,
    state: row.state,
    title: row.title ?? '',
    ...(row.state === 'live' && row.started_at !== null && { startedAt: row.started_at }),
    ...(row.state === 'live' && { viewers: row.viewers ?? 0 }),
    ...(row.state === 'upcoming' && row.scheduled_for !== null && { scheduledFor: row.scheduled_for }),
  }));
}
