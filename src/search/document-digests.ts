// Each search document's digest: what a rebuild compares to know which documents of the served
// index changed, so that it indexes those alone and keeps every other posting (patch-index.ts;
// docs/search.md, "The index in a rebuild"). A digest is the SHA-256 of the document's fields as
// the index reads them, each framed by its encoding and length, cut to DIGEST_CHARS characters of
// base64 (132 bits): a document is taken as unchanged only when its digest is the served one.
import { createHash, hash } from 'node:crypto';
import { KIND_SPECS, SEARCH_KINDS, type DocumentSource, type SearchKind } from './documents.ts';
import { packStrings } from './search-index.ts';

/** characters of a digest: 22 of base64, 132 bits of the SHA-256 */
export const DIGEST_CHARS = 22;

/** A kind's documents: the SHA-256 of their keys in order (keysDigestOf), and their digests in the same order, one string of DIGEST_CHARS characters a document. */
export interface KindDigests {
  readonly keysDigest: string;
  readonly digests: string;
}

/** Every kind's KindDigests: what the search index worker is handed of the served and the new documents. */
export type DocumentDigests = Readonly<Record<SearchKind, KindDigests>>;

/** Every kind's documents as the digests file records them: KindDigests and the keys themselves (read from the file only when asked for). */
export type KeyedDigests = Readonly<Record<SearchKind, KindDigests & { readonly keys: readonly string[] }>>;

const keysDigests = new WeakMap<readonly string[], string>();

/**
 * The SHA-256 (base64) of a list of keys in order: two lists are the same keys in the same order
 * exactly when theirs are equal. Of the keys packed (their text as UTF-16 code units, and where each
 * ends), in native calls; remembered per list (a rebuild asks twice of its lists of a million keys).
 */
export function keysDigestOf(keys: readonly string[]): string {
  let digest = keysDigests.get(keys);
  if (digest === undefined) {
    const { text, ends } = packStrings(keys);
    digest = createHash('sha256').update(text, 'utf16le').update(new Uint8Array(ends.buffer, ends.byteOffset, ends.byteLength)).digest('base64');
    keysDigests.set(keys, digest);
  }
  return digest;
}

/** The KindDigests of `digests` alone (no keys): what is sent to the worker. */
export const withoutKeys = (digests: KeyedDigests): DocumentDigests =>
  ({ videos: unkeyed(digests.videos), channels: unkeyed(digests.channels), playlists: unkeyed(digests.playlists) });
const unkeyed = ({ keysDigest, digests }: KindDigests): KindDigests => ({ keysDigest, digests });

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
    const keysDigest = keysDigestOf(source.keys);
    if (!include || !served) return { keys: source.keys, keysDigest, digests: digestsOf(k, source) };
    if (keysDigest === served[k].keysDigest) return { keys: source.keys, keysDigest, digests: digestsOf(k, source, include[k], { base: served[k].digests }) };
    const byKey = digestByKey(served[k]);
    return { keys: source.keys, keysDigest, digests: digestsOf(k, source, include[k], (d) => byKey(source.keys[d]!)) };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}

/**
 * The keyed digests as their file's text (search-file.ts SEARCH_DIGESTS_FILE): two lines of JSON,
 * each kind's KindDigests, then each kind's keys (which a rebuild whose documents kept their keys
 * never parses).
 */
export function serialiseDigests(digests: KeyedDigests): string {
  const first = Object.fromEntries(SEARCH_KINDS.map((k) => [k, unkeyed(digests[k])]));
  const keys = Object.fromEntries(SEARCH_KINDS.map((k) => [k, digests[k].keys]));
  return `${JSON.stringify({ format: 2, ...first })}\n${JSON.stringify(keys)}\n`;
}

/** Whether two kinds' documents are the same keys in the same order, each with the same digest. */
export const sameDocuments = (a: DocumentDigests, b: DocumentDigests): boolean =>
  SEARCH_KINDS.every((k) => a[k].digests === b[k].digests && a[k].keysDigest === b[k].keysDigest);

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
 * The keyed digests read from their file's text: each kind's KindDigests at once, its keys parsed
 * when first asked for and checked then to be strings whose digest is the one recorded, one per
 * digest. Throws when the file is not such a text. (Its bytes were checked against the served
 * manifest first; a digest of other characters would only match none.)
 */
export function parseDigests(text: string): KeyedDigests {
  const newline = text.indexOf('\n');
  if (newline === -1) throw new Error('search digests: no line of keys');
  const parsed = JSON.parse(text.slice(0, newline)) as Partial<Record<string, unknown>>;
  if (parsed['format'] !== 2) throw new Error('search digests: unknown format');
  let keys: Partial<Record<string, unknown>> | undefined;
  const result = {} as Record<SearchKind, KindDigests & { keys: readonly string[] }>;
  for (const kind of SEARCH_KINDS) {
    const value = parsed[kind] as { keysDigest?: unknown; digests?: unknown } | undefined;
    const { keysDigest, digests } = value ?? {};
    if (typeof keysDigest !== 'string' || typeof digests !== 'string' || digests.length % DIGEST_CHARS !== 0) throw new Error(`search digests: the ${kind} digests are damaged`);
    let kindKeys: string[] | undefined;
    result[kind] = {
      keysDigest,
      digests,
      get keys() {
        if (kindKeys) return kindKeys;
        keys ??= JSON.parse(text.slice(newline + 1)) as Partial<Record<string, unknown>>;
        const list = keys[kind];
        if (!Array.isArray(list) || !list.every((k) => typeof k === 'string') || list.length * DIGEST_CHARS !== digests.length || keysDigestOf(list) !== keysDigest) {
          throw new Error(`search digests: the ${kind} digests do not match their keys`);
        }
        return (kindKeys = list);
      },
    };
  }
  return result;
}
