// One representation of a resource, chosen and described the same way by every layer that sends
// one from memory or from the snapshot (the fast path, node:http's static pages and cached
// answers): which variant to send, from what is known without reading any body; its ETag; its
// header set, for a 200 and for a 304 (the 304 keeps the validator, caching, Vary, Link and
// X-Robots-Tag, and drops the type, length and encoding: RFC 9110 §15.4.5). docs/architecture.md,
// "One representation layer".
import { CORS_HEADERS } from './cors.ts';
import { acceptedEncodings, type Encoding } from './encoding.ts';
import { etagFor } from './etag.ts';

/** A representation of the content: one of its stored or computed encodings, or the identity. */
export type Variant = Encoding | 'identity';

/** What a resource says on every representation, apart from CORS and what depends on the variant. */
export interface ResourceHeaders {
  /** the identity representation's ETag (every variant shares its stamp: etag.ts) */
  readonly etag: string;
  readonly contentType: string;
  /** whether it has (or makes) encoded variants: then it answers `Vary: Accept-Encoding` */
  readonly varies: boolean;
  /** the other fields of 200 and 304 alike, name, value, …: cache-control, link, x-robots-tag */
  readonly fields: readonly string[];
}

const CORS_FLAT = Object.entries(CORS_HEADERS).flat();

/**
 * The encoding to send: the client's most preferred (br before gzip at equal weight) among those
 * the resource `has`; undefined for identity. A resource without variants never reads the header.
 */
export function chooseEncoding(has: Readonly<Partial<Record<Encoding, unknown>>>, acceptEncoding: string | undefined): Encoding | undefined {
  if (has.br === undefined && has.gzip === undefined) return undefined;
  return acceptedEncodings(acceptEncoding).find((e) => has[e] !== undefined);
}

/** The ETag of the variant sent: the identity's, or the same stamp with the variant's length. */
export const variantEtag = (etag: string, encoding: Encoding | undefined, length: number): string =>
  encoding === undefined ? etag : etagFor(etag, length);

/**
 * The header set of one representation as name, value, …: CORS, validator, the resource's fields,
 * Vary; for a 200 (`length` given) its type, length and encoding. A 304 (`length` undefined) is
 * the same set without those three.
 */
export function headerSet(resource: ResourceHeaders, encoding: Encoding | undefined, length: number, notModified: boolean): string[] {
  const flat = [...CORS_FLAT, 'etag', variantEtag(resource.etag, encoding, length), ...resource.fields];
  if (resource.varies) flat.push('vary', 'Accept-Encoding');
  if (!notModified) {
    flat.push('content-type', resource.contentType, 'content-length', String(length));
    if (encoding) flat.push('content-encoding', encoding);
  }
  return flat;
}

/** A header set as the lines of a raw HTTP/1.1 head (after the status line and Date), `before` first, ending with the blank line. */
export function headerText(flat: readonly string[], before: readonly (readonly [string, string])[] = [], after = ''): string {
  let block = '';
  for (const [name, value] of before) block += `${name}: ${value}\r\n`;
  for (let i = 0; i < flat.length; i += 2) block += `${flat[i]}: ${flat[i + 1]}\r\n`;
  // made flat once here: a string built piece by piece is a tree of its pieces (V8's cons strings),
  // kept as long as its page or answer and walked again at every write
  return Buffer.from(`${block}${after}\r\n`, 'latin1').toString('latin1');
}

/**
 * headerText as bytes of their own allocation, never a slice of Node's shared buffer pool
 * (Buffer.from of a short string): bytes kept as long as their page or kept answer would keep the
 * whole 64 KB pool alive with them. Kept answers' header lines pinned 64 KB each that way, 470 MB
 * of RSS during bench:search (docs/performance.md, "Search's RSS: header lines that pinned the
 * buffer pool"). The fast path keeps the text instead (a string: no pool), which it writes as one
 * chunk with the request's own lines.
 */
export function headerLines(flat: readonly string[], before: readonly (readonly [string, string])[] = [], after = ''): Buffer {
  const text = headerText(flat, before, after);
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'latin1'));
  bytes.write(text, 'latin1');
  return bytes;
}

/** A representation's header set, prepared once: as a list for node:http, as bytes for the fast path. */
export interface PreparedHeaders {
  readonly flat: readonly string[];
  /** the raw head lines (headerText), made on first use by the fast path */
  lines?: string;
}

/** The slot of one representation in a cache of prepared header sets. */
export type HeaderSlot = `${'200' | '304'}:${Variant}`;
// Constant strings, not a template made at every call: a key made anew is looked up in V8's string
// table before each property read (a slot and its lookup: 47-62 ns made anew, 9-17 ns constant).
export const headerSlot = (encoding: Encoding | undefined, notModified: boolean): HeaderSlot => notModified
  ? (encoding === undefined ? '304:identity' : encoding === 'br' ? '304:br' : '304:gzip')
  : (encoding === undefined ? '200:identity' : encoding === 'br' ? '200:br' : '200:gzip');
