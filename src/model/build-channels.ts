// Channels as the API serves them: each with its public videos (newest first) and public
// playlists (most recently updated first), and the channel list in each sort order. Whether a
// channel is live is added at request time (model/live.ts).
import { memoiseJson } from '../lib/serialise.ts';
import type { PublicChannel } from '../catalogue/public-catalogue.ts';
import { toChannel, type ChannelProfile } from './resources.ts';
import type { Urls } from './urls.ts';
import { CHANNEL_SORTS, type ChannelEntry, type ChannelSort, type PlaylistEntry, type VideoEntry } from './entries.ts';
import { runSteps, sortInSteps, STEP_ITEMS, type Steps } from './steps.ts';

export { CHANNEL_SORTS, type ChannelEntry, type ChannelSort };



export interface ChannelIndex {
  readonly channels: ReadonlyMap<string, ChannelEntry>;
  /** every channel in each sort order, highest first, ties by username */
  readonly orders: Readonly<Record<ChannelSort, readonly ChannelEntry[]>>;
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function buildChannels(
  channels: readonly PublicChannel[],
  latestPublic: readonly VideoEntry[],
  playlists: ReadonlyMap<string, PlaylistEntry>,
  urls: Urls,
): ChannelIndex {
  return runSteps(buildChannelsInSteps(channels, latestPublic, playlists, urls));
}

/** buildChannels in steps (steps.ts), a pause every few hundred videos or channels. */
export function* buildChannelsInSteps(
  channels: readonly PublicChannel[],
  latestPublic: readonly VideoEntry[],
  playlists: ReadonlyMap<string, PlaylistEntry>,
  urls: Urls,
): Steps<ChannelIndex> {
  let n = 0;
  const videosOf = new Map<string, VideoEntry[]>();
  for (const entry of latestPublic) {
    const list = videosOf.get(entry.video.channel);
    if (list) list.push(entry);
    else videosOf.set(entry.video.channel, [entry]);
    if (++n % (8 * STEP_ITEMS) === 0) yield;
  }
  const playlistsOf = new Map<string, PlaylistEntry[]>();
  for (const entry of playlists.values()) {
    if (entry.playlist.privacy !== 'public') continue;
    const list = playlistsOf.get(entry.playlist.channel);
    if (list) list.push(entry);
    else playlistsOf.set(entry.playlist.channel, [entry]);
  }

  const index = new Map<string, ChannelEntry>();
  for (const channel of channels) {
    const videos = videosOf.get(channel.username) ?? [];
    const own = (playlistsOf.get(channel.username) ?? []).sort((a, b) =>
      byKey(b.resource.updatedAt, a.resource.updatedAt) || byKey(a.playlist.id, b.playlist.id));
    let views = 0;
    for (const e of videos) views += e.video.views;
    const resource = memoiseJson(toChannel(channel, {
      views: Math.min(views, Number.MAX_SAFE_INTEGER),
      videos: videos.length,
      playlists: own.length,
      firstPublishedAt: videos[videos.length - 1]?.video.publishedAt,
    }, urls));
    index.set(channel.username, { channel, resource, videos, playlists: own });
    if (++n % STEP_ITEMS === 0) yield;
  }

  const all = [...index.values()];
  const order = (count: (c: ChannelProfile) => number) =>
    sortInSteps(all, (a, b) => count(b.resource) - count(a.resource) || byKey(a.channel.username, b.channel.username));
  return {
    channels: index,
    orders: { subscribers: yield* order((c) => c.subscribers), views: yield* order((c) => c.views), videos: yield* order((c) => c.videos) },
  };
}
