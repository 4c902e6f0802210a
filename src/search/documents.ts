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

/** What the index reads of a kind's documents (search-index.ts buildKind): each document's key and the text of each of its fields, read once. */
export interface DocumentSource {
  readonly keys: readonly string[];
  readonly count: number;
  /** the text of field `f` (KIND_SPECS order) of document `d` */
  text(d: number, f: number): string;
  /**
   * field `f`'s texts as UTF-16 code units, text `d` from `ends[d - 1]` (0 for the first) to
   * `ends[d]`, when the source holds them so (packed-documents.ts): the index reads them without
   * making a string of each
   */
  codeUnits?(f: number): { readonly units: Uint16Array; readonly ends: Int32Array } | undefined;
  /** called once every text was read: the source may let its memory go */
  release?(): void;
}

export type KindSources = Readonly<Record<SearchKind, DocumentSource>>;

/**
 * Each kind's documents read straight from the model, in document order: the key of each and the
 * text of each indexed field (KIND_SPECS order), made when asked for and never held as objects.
 * This is where a document's fields are declared; searchDocuments and the build's packing
 * (packed-documents.ts packSources) both read them from here.
 */
export function searchSources(model: Model): KindSources {
  const short = (text: string | undefined) => (text ?? '').slice(0, DESCRIPTION_CHARS);
  const latest = model.orders.latest;
  const channels = [...model.channels.values()];
  const playlists = [...model.playlists.values()].filter((p) => p.playlist.privacy === 'public');
  const source = <T>(items: readonly T[], key: (item: T) => string, fields: readonly ((item: T) => string)[]): DocumentSource => ({
    keys: items.map(key),
    count: items.length,
    text: (d, f) => fields[f]!(items[d]!),
  });
  return {
    // KIND_SPECS.videos.fields: title, tags, creator, description
    videos: source(latest, (e) => e.video.id, [
      (e) => e.video.title ?? '',
      (e) => e.video.tags.join(' '),
      (e) => `${e.creator.displayName ?? ''} ${e.video.channel}`,
      (e) => short(e.video.description),
    ]),
    // KIND_SPECS.channels.fields: displayName, username, description
    channels: source(channels, (c) => c.channel.username, [
      (c) => c.channel.displayName ?? '',
      (c) => c.channel.username ?? '',
      (c) => short(c.channel.description),
    ]),
    // KIND_SPECS.playlists.fields: title, description
    playlists: source(playlists, (p) => p.playlist.id, [
      (p) => p.playlist.title ?? '',
      (p) => short(p.playlist.description),
    ]),
  };
}

/** The documents of each kind as objects (a field per indexed field) and the key of each document. */
export function searchDocuments(model: Model): Record<SearchKind, { keys: string[]; documents: SearchDocument[] }> {
  const sources = searchSources(model);
  const kind = (k: SearchKind) => {
    const { keys, count, text } = sources[k];
    const fields = KIND_SPECS[k].fields;
    const documents = Array.from({ length: count }, (_, id): SearchDocument => Object.fromEntries([['id', id], ...fields.map((field, f) => [field, text(id, f)])]) as SearchDocument);
    return { keys: [...keys], documents };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}
