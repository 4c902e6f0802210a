// ETags, one way for every layer (fast path, node:http pipeline, Astro pages, app files, the
// build's static files and nginx's copy of them): creation from a body, the ETag of another
// representation of the same content, and If-None-Match. docs/cdn.md explains why an ETag is
// `"<stamp>-<length>"`.
import { createHash } from 'node:crypto';

/** A stamp of a body's content: the first 32 bits of its SHA-256, never 0. */
export function contentStamp(body: Buffer): number {
  const stamp = createHash('sha256').update(body).digest().readUInt32BE(0);
  return stamp === 0 ? 1 : stamp;
}

/**
 * The strong ETag of a representation: `"<stamp>-<length>"` in hex. It is the ETag nginx writes
 * for a static file whose mtime is the stamp, so a snapshot's files served by nginx carry the same
 * validators as the origin (docs/cdn.md). Every representation of the same content shares the stamp.
 */
export const etagFrom = (stamp: number, length: number): string => `"${stamp.toString(16)}-${length.toString(16)}"`;

/** The strong ETag of a body (identity representation). */
export const etagOf = (body: Buffer): string => etagFrom(contentStamp(body), body.length);

/**
 * The ETag of another representation of the same content (br, gzip) of `length` bytes: the
 * identity ETag's stamp with its own length. Distinct bytes, distinct validators.
 */
export const etagFor = (etag: string, length: number): string => `${stampOf(etag)}-${length.toString(16)}"`;

/** `"<stamp>` of `"<stamp>-<length>"`: what every representation of one content shares. */
const stampOf = (tag: string): string => tag.slice(0, tag.lastIndexOf('-'));

/**
 * If-None-Match (RFC 9110 §13.1.2): `*` alone, or a list naming the ETag of the representation
 * that would be sent, compared weakly. The same rule as nginx's, so a page answers 304 alike from
 * the origin and from nginx's copy of the snapshot.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((raw) => raw.trim().replace(/^W\//, '') === etag);
}

/** The stamp of an ETag as a number: what nginx's copy of a page uses as its file's mtime. */
export const stampOfEtag = (etag: string): number => Number.parseInt(etag.slice(1, etag.lastIndexOf('-')), 16);
