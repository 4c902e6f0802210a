// Atom feeds (RFC 4287) of every channel and public playlist (docs/decisions.md, "Sitemaps and
// feeds"): the FEED_ENTRIES newest public videos, newest first, at /feeds/channels/{username}.xml
// and /feeds/playlists/{id}.xml; their pages point to them with <link rel="alternate">. Unlisted
// playlists have no feed and no feed lists an unlisted video.
import type { Model, VideoEntry } from '../model/build-model.ts';
import type { ChannelEntry } from '../model/build-channels.ts';
import type { PlaylistEntry } from '../model/build-playlists.ts';
import { SITE_NAME } from '../lib/site.ts';
import { clip, XML_DECLARATION, xmlText } from './xml.ts';

export const FEED_ENTRIES = 50;
export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

export const channelFeedUrl = (model: Model, username: string) => `${model.urls.base}/feeds/channels/${encodeURIComponent(username)}.xml`;
export const playlistFeedUrl = (model: Model, id: string) => `${model.urls.base}/feeds/playlists/${encodeURIComponent(id)}.xml`;
export const playlistUrl = (model: Model, id: string) => `${model.urls.base}/playlists/${encodeURIComponent(id)}`;

const newestFirst = (a: VideoEntry, b: VideoEntry) =>
  (a.video.publishedAt < b.video.publishedAt ? 1 : a.video.publishedAt > b.video.publishedAt ? -1 : a.video.id < b.video.id ? -1 : a.video.id > b.video.id ? 1 : 0);

/** The newest public videos of a list, newest first. */
export function newestPublic(videos: readonly VideoEntry[], limit = FEED_ENTRIES): VideoEntry[] {
  return videos.filter((e) => e.video.privacy === 'public').sort(newestFirst).slice(0, limit);
}

export interface FeedFacts {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly page: string;
  readonly author: { readonly name: string; readonly uri: string };
  readonly icon?: string | undefined;
  /** when the feed has no entries */
  readonly since: string;
}

/** One video's entry: its watch URL and creator are the ones its resource shows (resources.ts toVideo), taken without making the resource. */
function entryXml(model: Model, entry: VideoEntry): string {
  const { video, creator } = entry;
  const watchUrl = xmlText(model.urls.watch(video.id));
  const description = video.description?.trim();
  const summary = description ? `\n  <summary>${xmlText(clip(description, 1_000))}</summary>` : '';
  return `<entry>
  <id>${watchUrl}</id>
  <title>${xmlText(video.title)}</title>
  <link rel="alternate" type="text/html" href="${watchUrl}"/>
  <published>${video.publishedAt}</published>
  <updated>${video.updatedAt ?? video.publishedAt}</updated>
  <author><name>${xmlText(creator.displayName ?? video.channel)}</name>${creator.channelUrl ? `<uri>${xmlText(creator.channelUrl)}</uri>` : ''}</author>${summary}
</entry>
`;
}

/** A feed's XML in pieces (the head, each entry, the tail): made from its facts and entries alone (site-files.ts keys a feed by them; the base URL of `model.urls` is in each entry's key). */
export function feedPieces(model: Model, { facts, entries }: FeedParts): string[] {
  const updated = entries.reduce((latest, e) => { const u = e.video.updatedAt ?? e.video.publishedAt; return u > latest ? u : latest; }, '') || facts.since;
  return [`${XML_DECLARATION}<feed xmlns="http://www.w3.org/2005/Atom">
<id>${xmlText(facts.id)}</id>
<title>${xmlText(facts.title)}</title>
<subtitle>${xmlText(facts.subtitle)}</subtitle>
<link rel="self" type="application/atom+xml" href="${xmlText(facts.id)}"/>
<link rel="alternate" type="text/html" href="${xmlText(facts.page)}"/>
<updated>${updated}</updated>
<author><name>${xmlText(facts.author.name)}</name><uri>${xmlText(facts.author.uri)}</uri></author>
<generator>${xmlText(SITE_NAME)}</generator>
${facts.icon ? `<icon>${xmlText(facts.icon)}</icon>\n` : ''}`, ...entries.map((entry) => entryXml(model, entry)), '</feed>\n'];
}

/** A feed's XML. */
export const feedXml = (model: Model, parts: FeedParts): string => feedPieces(model, parts).join('');

/** What a feed is made from: its facts and its entries (feedXml is a function of these alone). */
export interface FeedParts {
  readonly facts: FeedFacts;
  readonly entries: readonly VideoEntry[];
}

/** A channel's feed: its newest public videos. */
export function channelFeedParts(model: Model, channel: ChannelEntry): FeedParts {
  const profile = channel.resource;
  return {
    facts: {
      id: channelFeedUrl(model, profile.username),
      title: `${profile.displayName} on ${SITE_NAME}`,
      subtitle: clip(profile.description?.trim() || `The newest videos of ${profile.displayName}.`, 1_000),
      page: profile.channelUrl,
      author: { name: profile.displayName, uri: profile.channelUrl },
      icon: profile.avatarUrl,
      since: profile.createdAt,
    },
    entries: newestPublic(channel.videos),
  };
}

/** A public playlist's feed: the newest public videos it holds; undefined for an unlisted one. */
export function playlistFeedParts(model: Model, playlist: PlaylistEntry): FeedParts | undefined {
  if (playlist.playlist.privacy !== 'public') return undefined;
  const p = playlist.resource;
  return {
    facts: {
      id: playlistFeedUrl(model, p.id),
      title: `${p.title} (a playlist on ${SITE_NAME})`,
      subtitle: clip(p.description.trim() || `A playlist by ${p.creator.displayName ?? ''}.`, 1_000),
      page: playlistUrl(model, p.id),
      author: { name: p.creator.displayName ?? '', uri: p.creator.channelUrl ?? playlistUrl(model, p.id) },
      icon: p.creator.avatarUrl,
      since: p.createdAt,
    },
    entries: newestPublic(playlist.videos),
  };
}

/** A channel's feed. */
export const channelFeed = (model: Model, channel: ChannelEntry): string => feedXml(model, channelFeedParts(model, channel));

/** A public playlist's feed; undefined for an unlisted one. */
export function playlistFeed(model: Model, playlist: PlaylistEntry): string | undefined {
  const parts = playlistFeedParts(model, playlist);
  return parts && feedXml(model, parts);
}
