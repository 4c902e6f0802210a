// The snapshot's trending scores, related lists and sort orders as its build computed them
// (derived.bin), with the fingerprint of the fields they were computed from (derive-on-worker.ts
// fingerprintOf): a rebuild whose videos' trending and related fields are the served snapshot's
// (a changed title or description: the usual edit) takes them from it instead of computing them
// again, about 1.7 s of the second core for pyvideo-100k (docs/architecture.md, "Trending and
// related kept in the snapshot"). The file is listed in the manifest like every other (so its size
// and SHA-256 are checked before it is used, and the snapshot id covers it) and holds only numbers
// about public and unlisted videos, which model.ndjson holds too.
//
// Layout: one line of JSON (the format, the fingerprint, the counts), padded with spaces so that
// the arrays after it start at a multiple of 8 bytes; then the scores, the digests of each video's
// fields and of each video's id (derive-on-worker.ts FieldDigests: what the next build looks the
// videos the change log names up in), all float64; the list offsets and the lists (int32), and each
// order (int32) in VIDEO_SORTS order, all in the machine's byte order, which the head names (a file
// of the other order is not used).
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, linkSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
// from where it is declared, not through build-model.ts: the derive worker, which imports this file, loads no more of the model than it computes with
import { VIDEO_SORTS } from '../model/entries.ts';
import type { DerivedPacked } from './derive-on-worker.ts';
import { MANIFEST_FILE } from './layout.ts';
import { parseManifestHead, type FileRecord } from './manifest.ts';
import { createFileSink } from './text-files.ts';

export const DERIVED_FILE = 'derived.bin';
/** 2: with the field digests */
const FORMAT = 2;

interface DerivedHead {
  readonly format: number;
  readonly endianness: string;
  readonly fingerprint: string;
  readonly videos: number;
  readonly pool: number;
  readonly orders: readonly number[];
}

const bytesOf = (array: Float64Array | Int32Array): Buffer => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/** The file's bytes, in pieces. */
export function encodeDerived(packed: DerivedPacked, fingerprint: string): Buffer[] {
  const head: DerivedHead = {
    format: FORMAT,
    endianness: endianness(),
    fingerprint,
    videos: packed.trending.length,
    pool: packed.pool.length,
    orders: VIDEO_SORTS.map((sort) => packed.orders[sort].length),
  };
  const line = JSON.stringify(head);
  // the line and its newline end on a multiple of 8
  const padded = `${line}${' '.repeat((8 - ((Buffer.byteLength(line) + 1) % 8)) % 8)}\n`;
  return [Buffer.from(padded), bytesOf(packed.trending), bytesOf(packed.digests.fields), bytesOf(packed.digests.ids), bytesOf(packed.offsets), bytesOf(packed.pool), ...VIDEO_SORTS.map((sort) => bytesOf(packed.orders[sort]))];
}

/** Writes derived.bin into `dir` a piece at a time (views of the arrays: nothing copied); its record for the manifest. */
export function writeDerivedFile(dir: string, packed: DerivedPacked, fingerprint: string): FileRecord {
  const sink = createFileSink(join(dir, DERIVED_FILE));
  try {
    for (const piece of encodeDerived(packed, fingerprint)) sink.write(piece);
  } finally {
    sink.close();
  }
  return sink.record();
}

/**
 * derived.bin for a build whose numbers were taken from the served snapshot's (derive-on-worker.ts:
 * source `served`): the served file is the one this build would write (the same numbers and
 * fingerprint, encoded by the same code) and was checked against `recorded` (size and SHA-256)
 * when the worker read it, so it is hard-linked into `dir` (copied where links cannot be made), as
 * the page files' shards are, instead of 44 MB written and hashed again on the build's main thread
 * (pyvideo-100k). Its record is `recorded`; undefined (nothing left in `dir`) when the file cannot
 * be linked nor copied, or is no longer of the size recorded: the caller writes it.
 */
export function linkDerivedFile(dir: string, servedDir: string, recorded: FileRecord): FileRecord | undefined {
  const target = join(dir, DERIVED_FILE);
  const served = join(servedDir, DERIVED_FILE);
  try {
    try {
      linkSync(served, target);
    } catch {
      copyFileSync(served, target);
    }
    if (statSync(target).size === recorded.size) return recorded;
  } catch { /* written by the caller */ }
  rmSync(target, { force: true });
  return undefined;
}

/** A typed array of `count` elements copied from `bytes` at `offset` (a copy: aligned, and the file's buffer is let go). */
function copied<T extends Float64Array | Int32Array>(make: (count: number) => T, bytes: Buffer, offset: number, count: number): T {
  const array = make(count);
  new Uint8Array(array.buffer).set(bytes.subarray(offset, offset + array.byteLength));
  return array;
}

/**
 * What a derived.bin holds and the fingerprint of the fields it was computed from, when its bytes
 * are what `recorded` says (size, SHA-256) and it is of this format and byte order; else undefined
 * (the caller computes the numbers).
 */
export function decodeDerivedFile(bytes: Buffer, recorded: FileRecord): { readonly packed: DerivedPacked; readonly fingerprint: string } | undefined {
  if (bytes.length !== recorded.size || createHash('sha256').update(bytes).digest('hex') !== recorded.sha256) return undefined;
  const newline = bytes.indexOf(0x0a);
  if (newline === -1 || (newline + 1) % 8 !== 0) return undefined;
  let head: DerivedHead;
  try {
    head = JSON.parse(bytes.toString('utf8', 0, newline)) as DerivedHead;
  } catch {
    return undefined;
  }
  if (head.format !== FORMAT || head.endianness !== endianness() || typeof head.fingerprint !== 'string') return undefined;
  const { videos } = head;
  if (!Number.isInteger(videos) || videos < 0 || !Number.isInteger(head.pool) || !Array.isArray(head.orders) || head.orders.length !== VIDEO_SORTS.length) return undefined;
  const sizes = [3 * 8 * videos, 4 * (videos + 1), 4 * head.pool, ...head.orders.map((n) => 4 * n)];
  if (newline + 1 + sizes.reduce((a, b) => a + b, 0) !== bytes.length) return undefined;
  let at = newline + 1;
  const take = <T extends Float64Array | Int32Array>(make: (count: number) => T, count: number): T => {
    const array = copied(make, bytes, at, count);
    at += array.byteLength;
    return array;
  };
  const trending = take((n) => new Float64Array(n), videos);
  const digests = { fields: take((n) => new Float64Array(n), videos), ids: take((n) => new Float64Array(n), videos) };
  const offsets = take((n) => new Int32Array(n), videos + 1);
  const pool = take((n) => new Int32Array(n), head.pool);
  const orders = Object.fromEntries(VIDEO_SORTS.map((sort, i) => [sort, take((n) => new Int32Array(n), head.orders[i]!)])) as DerivedPacked['orders'];
  if (offsets[0] !== 0 || offsets[videos] !== head.pool) return undefined;
  return { packed: { trending, offsets, pool, orders, digests }, fingerprint: head.fingerprint };
}

/** Whether decoded numbers were computed from fields of this `fingerprint`, for `videos` videos: only then may they be used. */
export const derivedFrom = (decoded: { readonly packed: DerivedPacked; readonly fingerprint: string }, fingerprint: string, videos: number): boolean =>
  decoded.fingerprint === fingerprint && decoded.packed.trending.length === videos;

/** Reads and decodes `file` (decodeDerivedFile); undefined when it cannot be read or used. */
export function readServedDerived(file: string, recorded: FileRecord): { readonly packed: DerivedPacked; readonly fingerprint: string } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  return decodeDerivedFile(bytes, recorded);
}

/** The longest manifest head read for a derived.bin's record (a head lists every file: about 85 KB at a million videos). */
const MOST_HEAD_BYTES = 1 << 22;

/**
 * The record of derived.bin in the head of the manifest of the snapshot in `dir` (its first line,
 * read alone), or undefined (none, or unreadable). Trusted only once the build has checked that the
 * manifest hashes to the snapshot's id (derive-on-worker.ts compares it with the chosen snapshot's).
 */
export function recordedDerived(dir: string): FileRecord | undefined {
  try {
    const fd = openSync(join(dir, MANIFEST_FILE), 'r');
    try {
      const chunks: Buffer[] = [];
      let read = 0;
      for (;;) {
        const chunk = Buffer.alloc(1 << 16);
        const got = readSync(fd, chunk, 0, chunk.length, read);
        const newline = chunk.subarray(0, got).indexOf(0x0a);
        chunks.push(chunk.subarray(0, newline === -1 ? got : newline));
        read += got;
        if (newline !== -1) return parseManifestHead(Buffer.concat(chunks).toString('utf8')).files[DERIVED_FILE];
        if (got === 0 || read >= MOST_HEAD_BYTES) return undefined;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
