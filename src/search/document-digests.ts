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

/** Every kind's documents as the digests file records them: their keys, and their digests in the same order. */
export type KeyedDigests = Readonly<Record<SearchKind, { readonly keys: readonly string[]; readonly digests: string }>>;

/** Frame tags: the encoding of a field's bytes, so that no two framings read alike. */
const UTF16 = 1;
const UTF8 = 2;
const FRAME_HEAD = 5;

/**
 * The digests of `source`'s documents, as one string (document d's at d × DIGEST_CHARS); of those
 * `include` names alone, when given, the others' taken from elsewhere: `otherwise` by document, or
 * `base` when it holds the digests of the same documents in the same order (a run of documents left
 * out is then one slice of it).
 */
export function digestsOf(kind: SearchKind, source: DocumentSource, include?: (d: number) => boolean, otherwise?: ((d: number) => string) | { readonly base: string }): string {
  const fields = KIND_SPECS[kind].fields.length;
  const units = Array.from({ length: fields }, (_, f) => source.codeUnits?.(f));
  const utf8 = Array.from({ length: fields }, (_, f) => source.descriptionUtf8?.(f));
  let frame = Buffer.alloc(1 << 16);
  const digests: string[] = [];
  const base = typeof otherwise === 'object' ? otherwise.base : undefined;
  if (base !== undefined && base.length !== source.count * DIGEST_CHARS) throw new Error(`search digests: ${base.length / DIGEST_CHARS} ${kind} digests for ${source.count} documents`);
  // the first document of the run left out that base's slice will give
  let run = 0;
  for (let d = 0; d < source.count; d++) {
    if (include && !include(d)) {
      if (base !== undefined) continue;
      const digest = (otherwise as (d: number) => string)(d);
      if (digest.length !== DIGEST_CHARS) throw new Error(`search digests: no digest for ${kind} document ${source.keys[d]}`);
      digests.push(digest);
      continue;
    }
    if (base !== undefined) {
      if (run < d) digests.push(base.slice(run * DIGEST_CHARS, d * DIGEST_CHARS));
      run = d + 1;
    }
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
  if (base !== undefined && run < source.count) digests.push(base.slice(run * DIGEST_CHARS));
  return digests.join('');
}

/**
 * Every kind's keyed digests: of every document, or of those `include` names, the others' taken
 * from `served` by key (a document `include` leaves out must have one there).
 */
export function documentDigests(sources: Readonly<Record<SearchKind, DocumentSource>>, include?: Readonly<Record<SearchKind, (d: number) => boolean>>, served?: KeyedDigests): KeyedDigests {
  const kind = (k: SearchKind) => {
    const source = sources[k];
    if (!include || !served) return { keys: source.keys, digests: digestsOf(k, source) };
    if (sameKeys(source.keys, served[k].keys)) return { keys: source.keys, digests: digestsOf(k, source, include[k], { base: served[k].digests }) };
    const byKey = digestByKey(served[k]);
    return { keys: source.keys, digests: digestsOf(k, source, include[k], (d) => byKey(source.keys[d]!)) };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}

/** The keyed digests as their file's text (search-file.ts SEARCH_DIGESTS_FILE): one line of JSON. */
export function serialiseDigests(digests: KeyedDigests): string {
  return `${JSON.stringify({ format: 1, videos: digests.videos, channels: digests.channels, playlists: digests.playlists })}\n`;
}

/** Whether two lists of keys are the same keys in the same order. */
export const sameKeys = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((key, d) => b[d] === key);

/** Whether two keyed digests are the same documents: the same keys in the same order, each with the same digest. */
export function sameDocuments(a: KeyedDigests, b: KeyedDigests): boolean {
  return SEARCH_KINDS.every((k) => a[k].digests === b[k].digests && sameKeys(a[k].keys, b[k].keys));
}

/** The digests of a kind by key: the digest of the document of `key`, or '' when there is none. */
export function digestByKey(kind: { readonly keys: readonly string[]; readonly digests: string }): (key: string) => string {
  const at = new Map<string, number>();
  kind.keys.forEach((key, d) => at.set(key, d));
  return (key) => {
    const d = at.get(key);
    return d === undefined ? '' : kind.digests.slice(d * DIGEST_CHARS, (d + 1) * DIGEST_CHARS);
  };
}

/**
 * The keyed digests read from their file's text, each kind's checked to hold a key (a string) and
 * one digest per document; throws when the file is not such a text. (Its bytes were checked
 * against the served manifest first; a digest of other characters would only match none.)
 */
export function parseDigests(text: string): KeyedDigests {
  const parsed = JSON.parse(text) as Partial<Record<string, unknown>>;
  if (parsed['format'] !== 1) throw new Error('search digests: unknown format');
  const result = {} as Record<SearchKind, { keys: string[]; digests: string }>;
  for (const kind of SEARCH_KINDS) {
    const value = parsed[kind] as { keys?: unknown; digests?: unknown } | undefined;
    const keys = value?.keys;
    const digests = value?.digests;
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string') || typeof digests !== 'string' || digests.length !== keys.length * DIGEST_CHARS) {
      throw new Error(`search digests: the ${kind} digests do not match their keys`);
    }
    result[kind] = { keys: keys as string[], digests };
  }
  return result;
}
