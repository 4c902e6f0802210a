// Live channels in the order /v1/live and the discovery shelf show them (CONTRACT §2): live now,
// most viewers first; with `all`, then upcoming (soonest first), then offline. Ties by username.
// Records of channels the model does not know are skipped.
import type { LiveChannel } from '../api/schemas.ts';
import type { Model } from './build-model.ts';
import type { PublicLiveStream } from './public-catalogue.ts';
import { toLiveChannel } from './resources.ts';

const RANK = { live: 0, upcoming: 1, offline: 2 } as const;

function compare(a: PublicLiveStream, b: PublicLiveStream): number {
  return RANK[a.state] - RANK[b.state]
    || (a.state === 'live' ? (b.viewers ?? 0) - (a.viewers ?? 0) : 0)
    || (a.state === 'upcoming' && a.scheduledFor !== b.scheduledFor ? ((a.scheduledFor ?? '') < (b.scheduledFor ?? '') ? -1 : 1) : 0)
    || (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0);
}

export function liveChannels(streams: readonly PublicLiveStream[], state: 'live' | 'all', model: Model): LiveChannel[] {
  const chosen = streams.filter((s) => (state === 'all' || s.state === 'live') && model.channels.has(s.channel));
  return chosen.sort(compare).map((s) => toLiveChannel(s, model.channels.get(s.channel)!.channel, model.urls));
}
