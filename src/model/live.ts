// Live state, as of the request: live channels in the order /v1/live and the discovery shelf show
// them (docs/api-contract.md §2: live now, most viewers first; with `all`, then upcoming, soonest first, then
// offline; ties by username; records of unknown channels skipped), and channels with `isLive`.
import type { Channel, LiveChannel } from './schemas.ts';
import type { ChannelEntry } from './build-channels.ts';
import type { Model } from './build-model.ts';
import type { PublicLiveStream } from '../catalogue/public-catalogue.ts';
import { toLiveChannel } from './resources.ts';

const RANK = { live: 0, upcoming: 1, offline: 2 } as const;

function compare(a: PublicLiveStream, b: PublicLiveStream): number {
  return RANK[a.state] - RANK[b.state]
    || (a.state === 'live' ? (b.viewers ?? 0) - (a.viewers ?? 0) : 0)
    // an upcoming record without a date (possible only by editing the database) goes last
    || (a.state === 'upcoming' && a.scheduledFor !== b.scheduledFor ? ((a.scheduledFor ?? '\uffff') < (b.scheduledFor ?? '\uffff') ? -1 : 1) : 0)
    || (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0);
}

export function liveChannels(streams: readonly PublicLiveStream[], state: 'live' | 'all', model: Model): LiveChannel[] {
  const chosen = streams.filter((s) => (state === 'all' || s.state === 'live') && model.channels.has(s.channel));
  return chosen.sort(compare).map((s) => toLiveChannel(s, model.channels.get(s.channel)!.channel, model.urls));
}

const liveSets = new WeakMap<readonly PublicLiveStream[], ReadonlySet<string>>();

/** Usernames of the channels live now; computed once per set of records. */
export function liveNow(streams: readonly PublicLiveStream[]): ReadonlySet<string> {
  let set = liveSets.get(streams);
  if (!set) {
    set = new Set(streams.filter((s) => s.state === 'live').map((s) => s.channel));
    liveSets.set(streams, set);
  }
  return set;
}

/** A channel resource with its live state as of now. */
export const channelAsOf = (entry: ChannelEntry, live: ReadonlySet<string>): Channel =>
  ({ ...entry.resource, isLive: live.has(entry.channel.username) });
