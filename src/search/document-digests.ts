// Each search document's digest: what a rebuild compares to know which documents of the served
// index changed, so that it indexes those alone and keeps every other posting (patch-index.ts;
// docs/search.md, "The index in a rebuild"). A digest is the SHA-256 of the document's fields as
// the index reads them, each framed by its encoding and length, cut to DIGEST_CHARS characters of
// base64 (132 bits): a document is taken as unchanged only when its digest is the served one.
import { hash } from 'node:crypto';
import { KIND_SPECS, SEARCH_KINDS, type DocumentSource, type SearchKind } from './documents.ts';

/** characters of a digest: 22 of base64, 132 bits of the SHA-256 */
export const DIGEST_CHARS = 22;

/** Every kind's digests, each kind's one string of DIGEST_CHARS characters a document, in document order. */
export type DocumentDigests = Readonly<Record<SearchKind, string>>;

/** Frame tags: the encoding of a field's bytes, so that no two framings read alike. */
const UTF16 = 1;
const UTF8 = 2;
const FRAME_HEAD = 5;

/** The digests of `source`'s documents, as one string (document d's at d × DIGEST_CHARS). */
export function digestsOf(kind: SearchKind, source: DocumentSource): string {
  const fields = KIND_SPECS[kind].fields.length;
  const units = Array.from({ length: fields }, (_, f) => source.codeUnits?.(f));
  const utf8 = Array.from({ length: fields }, (_, f) => source.descriptionUtf8?.(f));
  let frame = Buffer.alloc(1 << 16);
  const digests: string[] = [];
  for (let d = 0; d < source.count; d++) {
    let at = 0;
    for (let f = 0; f < fields; f++) {
      const packed = units[f];
      const bytes = utf8[f];
      let piece: Uint8Array;
      let tag = UTF16;
      if (packed) {
        const from = d === 0 ? 0 : packed.ends[d - 1]!;
        piece = new Uint8Array(packed.units.buffer, packed.units.byteOffset + 2 * from, 2 * (packed.ends[d]! - from));
      } else if (bytes) {
        piece = bytes.bytes.subarray(d === 0 ? 0 : bytes.ends[d - 1]!, bytes.ends[d]!);
        tag = UTF8;
      } else {
        piece = Buffer.from(source.text(d, f), 'utf16le');
      }
      if (at + FRAME_HEAD + piece.length > frame.length) {
        const larger = Buffer.alloc(2 * (at + FRAME_HEAD + piece.length));
        frame.copy(larger, 0, 0, at);
        frame = larger;
      }
      frame[at] = tag;
      frame.writeUInt32LE(piece.length, at + 1);
      frame.set(piece, at + FRAME_HEAD);
      at += FRAME_HEAD + piece.length;
    }
    digests.push(hash('sha256', frame.subarray(0, at), 'base64').slice(0, DIGEST_CHARS));
  }
  return digests.join('');
}

/** Every kind's digests. */
export function documentDigests(sources: Readonly<Record<SearchKind, DocumentSource>>): DocumentDigests {
  return { videos: digestsOf('videos', sources.videos), channels: digestsOf('channels', sources.channels), playlists: digestsOf('playlists', sources.playlists) };
}

/** The digests as their file's text (search-file.ts SEARCH_DIGESTS_FILE): one line of ASCII JSON. */
export function serialiseDigests(digests: DocumentDigests): string {
  return `${JSON.stringify({ format: 1, videos: digests.videos, channels: digests.channels, playlists: digests.playlists })}\n`;
}

/**
 * The digests read from their file's text, each kind's checked to hold one digest per document of
 * `counts` (the served index's); throws when the file is not such a text. (Its bytes were checked
 * against the served manifest first; a digest of other characters would only match none.)
 */
export function parseDigests(text: string, counts: Readonly<Record<SearchKind, number>>): DocumentDigests {
  const parsed = JSON.parse(text) as Partial<Record<string, unknown>>;
  if (parsed['format'] !== 1) throw new Error('search digests: unknown format');
  const digests = {} as Record<SearchKind, string>;
  for (const kind of SEARCH_KINDS) {
    const value = parsed[kind];
    if (typeof value !== 'string' || value.length !== counts[kind] * DIGEST_CHARS) throw new Error(`search digests: the ${kind} digests do not match the index's documents`);
    digests[kind] = value;
  }
  return digests;
}
