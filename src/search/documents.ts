// What is searchable (docs/api-contract.md §2 Search): public videos (title, tags, creator, description),
// channels (username, display name, description) and public playlists (title, description).
// Unlisted and private records are not documents, so no search can find them. Long descriptions
// are indexed by their first 1,000 characters, which bounds the index without losing what a
// description is about.
import type { Changes } from '../catalogue/change-log.ts';
import type { Model } from '../model/build-model.ts';
import { StoredVideo } from '../model/stored-video.ts';

export const DESCRIPTION_CHARS = 1000;

/** A description as indexed: its first DESCRIPTION_CHARS UTF-16 code units ('' without one). */
export function shortDescription(text: string | undefined): string {
  return (text ?? '').slice(0, DESCRIPTION_CHARS);
}

export const SEARCH_KINDS = ['videos', 'channels', 'playlists'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export interface KindSpec {
  readonly fields: readonly string[];
  /** the short fields, where a typo or a partial word may match (descriptions match exact words only) */
  readonly looseFields: readonly string[];
  /** title over tags over description */
  readonly boost: Readonly<Record<string, number>>;
  /**
   * each field's typical length in terms: BM25+'s pivot for a field's length (a text longer than it
   * weighs its words less). Fixed, not the corpus's average, so that a document's stored scores are
   * its own and one changed document changes no other's (docs/search.md, "Matching and ranking");
   * measured on pyvideo's real catalogue and rounded.
   */
  readonly typicalLength: Readonly<Record<string, number>>;
}

export const KIND_SPECS: Readonly<Record<SearchKind, KindSpec>> = {
  videos: { fields: ['title', 'tags', 'creator', 'description'], looseFields: ['title', 'tags', 'creator'], boost: { title: 3, tags: 2, creator: 1.5, description: 1 }, typicalLength: { title: 6, tags: 2, creator: 5, description: 64 } },
  channels: { fields: ['displayName', 'username', 'description'], looseFields: ['displayName', 'username'], boost: { displayName: 3, username: 2, description: 1 }, typicalLength: { displayName: 3, username: 3, description: 12 } },
  playlists: { fields: ['title', 'description'], looseFields: ['title'], boost: { title: 3, description: 1 }, typicalLength: { title: 3, description: 16 } },
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
  /**
   * field `f`'s texts as the UTF-8 of descriptions (descriptionBytes) when the source holds them so
   * (packed-documents.ts), value `d` from `ends[d - 1]` (0 for the first) to `ends[d]`: the index
   * reads a description of ASCII alone from its bytes, without decoding it (its text is then its
   * first DESCRIPTION_CHARS bytes)
   */
  descriptionUtf8?(f: number): { readonly bytes: Uint8Array; readonly ends: Int32Array } | undefined;
  /**
   * pushes the text of field `f` of document `d` onto `out` in pieces (their concatenation is
   * text(d, f)) and returns its length, when the source makes its texts so (searchSources): the
   * build's packing joins a field's pieces once instead of making each text a string of its own
   */
  pieces?(d: number, f: number, out: string[]): number;
  /**
   * field `f`'s texts as the UTF-8 of descriptions, when the source holds them so (the model's
   * videos: stored-video.ts descriptionBytes): document `d`'s text is shortDescription of its bytes
   * decoded (no bytes: ''). The build's packing copies the bytes and its worker decodes them
   * (packed-documents.ts), instead of a string of each being made on the main thread.
   */
  descriptionBytes?(f: number): ((d: number) => Uint8Array | undefined) | undefined;
  /** called once every text was read: the source may let its memory go */
  release?(): void;
}

export type KindSources = Readonly<Record<SearchKind, DocumentSource>>;

/** Pushes the text of one field of `item` onto `out` in pieces and returns its length (DocumentSource.pieces). */
type FieldPieces<T> = (item: T, out: string[]) => number;

/** A field whose text is one string. */
const whole = <T>(text: (item: T) => string): FieldPieces<T> => (item, out) => {
  const value = text(item);
  out.push(value);
  return value.length;
};

/** `strings` joined by single spaces (`strings.join(' ')`), in pieces. */
function spaced(strings: readonly string[], out: string[]): number {
  let length = 0;
  for (let i = 0; i < strings.length; i++) {
    if (i > 0) {
      out.push(' ');
      length++;
    }
    const piece = strings[i]!;
    out.push(piece);
    length += piece.length;
  }
  return length;
}

/** The model's items each kind's documents are made of, in document order: public videos newest first, channels, public playlists. */
function documentItems(model: Model) {
  return {
    latest: model.orders.latest,
    channels: [...model.channels.values()],
    playlists: [...model.playlists.values()].filter((p) => p.playlist.privacy === 'public'),
  };
}

/**
 * Which documents (by their place in searchSources' order) are made of a record the change log
 * names (`changes`: the records changed since a served snapshot): a video's document of its video
 * record (tags included) and its channel's (the creator's name and username), a channel's of its
 * record, a playlist's of its record. The others are the served index's documents, unchanged
 * (search-file.ts packChangedDocuments).
 */
export function documentsNamedBy(model: Model, changes: Changes): Readonly<Record<SearchKind, (d: number) => boolean>> {
  const { latest, channels, playlists } = documentItems(model);
  // the videos named, marked in one walk (a million videos scattered over the heap: the walk is
  // the cost), or none walked when the log names no video and no channel
  const videos = new Uint8Array(latest.length);
  if (changes.video.size > 0 || changes.channel.size > 0) {
    for (let d = 0; d < latest.length; d++) {
      const video = latest[d]!.video;
      if (changes.video.has(video.id) || changes.channel.has(video.channel)) videos[d] = 1;
    }
  }
  return {
    videos: (d) => videos[d] === 1,
    channels: (d) => changes.channel.has(channels[d]!.channel.username),
    playlists: (d) => changes.playlist.has(playlists[d]!.playlist.id),
  };
}

/**
 * Each kind's documents read straight from the model, in document order: the key of each and the
 * text of each indexed field (KIND_SPECS order), made when asked for and never held as objects.
 * This is where a document's fields are declared, as the pieces their texts are made of (so that
 * the build's packing, packed-documents.ts packSources, makes no string per text: a video's tags
 * and its creator are joined only with the whole field's texts); searchDocuments and the index
 * read the texts themselves (text: the pieces joined).
 */
export function searchSources(model: Model): KindSources {
  const short = shortDescription;
  const { latest, channels, playlists } = documentItems(model);
  const source = <T>(items: readonly T[], keys: string[], fields: readonly FieldPieces<T>[], descriptions?: { field: number; bytes: (item: T) => Uint8Array | undefined }): DocumentSource => ({
    keys,
    count: items.length,
    text(d, f) {
      const out: string[] = [];
      fields[f]!(items[d]!, out);
      return out.length === 1 ? out[0]! : out.join('');
    },
    pieces: (d, f, out) => fields[f]!(items[d]!, out),
    descriptionBytes: (f) => (descriptions?.field === f ? (d) => descriptions.bytes(items[d]!) : undefined),
  });
  // the description field's bytes, when every video is held as the model holds it (always, for a
  // model built by build-model.ts); the bytes decoded are the description (StoredVideo.description).
  // One walk over the videos for their keys and that (a walk of a million scattered objects costs more than what it does)
  const videoKeys = new Array<string>(latest.length);
  let stored = true;
  for (let d = 0; d < latest.length; d++) {
    const video = latest[d]!.video;
    videoKeys[d] = video.id;
    if (!(video instanceof StoredVideo)) stored = false;
  }
  return {
    // KIND_SPECS.videos.fields: title, tags, creator, description
    videos: source(latest, videoKeys, [
      whole((e) => e.video.title ?? ''),
      (e, out) => spaced(e.video.tags, out),
      (e, out) => {
        const name = e.creator.displayName ?? '';
        const channel = e.video.channel;
        out.push(name, ' ', channel);
        return name.length + 1 + channel.length;
      },
      whole((e) => short(e.video.description)),
    ], stored ? { field: KIND_SPECS.videos.fields.indexOf('description'), bytes: (e) => (e.video as StoredVideo).descriptionBytes } : undefined),
    // KIND_SPECS.channels.fields: displayName, username, description
    channels: source(channels, channels.map((c) => c.channel.username), [
      whole((c) => c.channel.displayName ?? ''),
      whole((c) => c.channel.username ?? ''),
      whole((c) => short(c.channel.description)),
    ]),
    // KIND_SPECS.playlists.fields: title, description
    playlists: source(playlists, playlists.map((p) => p.playlist.id), [
      whole((p) => p.playlist.title ?? ''),
      whole((p) => short(p.playlist.description)),
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
