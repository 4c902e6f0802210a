// What is searchable (docs/api-contract.md §2 Search): public videos (title, tags, creator, description),
// channels (username, display name, description) and public playlists (title, description).
// Unlisted and private records are not documents, so no search can find them. Long descriptions
// are indexed by their first 1,000 characters, which bounds the index without losing what a
// description is about.
import type { Model } from '../model/build-model.ts';

export const DESCRIPTION_CHARS = 1000;

export const SEARCH_KINDS = ['videos', 'channels', 'playlists'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export interface KindSpec {
  readonly fields: readonly string[];
  /** the short fields, where a typo or a partial word may match (descriptions match exact words only) */
  readonly looseFields: readonly string[];
  /** title over tags over description */
  readonly boost: Readonly<Record<string, number>>;
}

export const KIND_SPECS: Readonly<Record<SearchKind, KindSpec>> = {
  videos: { fields: ['title', 'tags', 'creator', 'description'], looseFields: ['title', 'tags', 'creator'], boost: { title: 3, tags: 2, creator: 1.5, description: 1 } },
  channels: { fields: ['displayName', 'username', 'description'], looseFields: ['displayName', 'username'], boost: { displayName: 3, username: 2, description: 1 } },
  playlists: { fields: ['title', 'description'], looseFields: ['title'], boost: { title: 3, description: 1 } },
};

export interface SearchDocument {
  /** position in the kind's key list */
  readonly id: number;
  readonly [field: string]: string | number;
}

/** The documents of each kind and the key (video id, username, playlist id) of each document. */
export function searchDocuments(model: Model): Record<SearchKind, { keys: string[]; documents: SearchDocument[] }> {
  const short = (text: string | undefined) => (text ?? '').slice(0, DESCRIPTION_CHARS);
  const videos = model.orders.latest.map((e, id) => ({
    key: e.video.id,
    document: {
      id,
      title: e.video.title,
      tags: e.video.tags.join(' '),
      creator: `${e.creator.displayName ?? ''} ${e.video.channel}`,
      description: short(e.video.description),
    },
  }));
  const channels = [...model.channels.values()].map((c, id) => ({
    key: c.channel.username,
    document: { id, displayName: c.channel.displayName, username: c.channel.username, description: short(c.channel.description) },
  }));
  const playlists = [...model.playlists.values()].filter((p) => p.playlist.privacy === 'public').map((p, id) => ({
    key: p.playlist.id,
    document: { id, title: p.playlist.title, description: short(p.playlist.description) },
  }));
  const split = (list: { key: string; document: SearchDocument }[]) => ({ keys: list.map((x) => x.key), documents: list.map((x) => x.document) });
  return { videos: split(videos), channels: split(channels), playlists: split(playlists) };
}
