// The snapshot manifest: every prerendered page by canonical URL, with where its bytes are
// (the shard of page files it is in, page-shards.ts, and its ranges there: identity in
// pages-NNN.bin, br in pages-NNN.br.bin, gzip in pages-NNN.gz.bin), a checksum of those bytes and
// the page's extra headers; and the size and SHA-256 of every other file of the snapshot, so a
// damaged or partly copied snapshot is refused before it is served (docs/reliability.md,
// "Snapshots"). The snapshot's id is the start of the manifest's own SHA-256.
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Version of the format below; a server refuses snapshots of another one (rebuild them), and a
 * build reuses nothing of them. 3: page files in shards (ranges name their shard).
 */
export const MANIFEST_FORMAT = 3;

/** hex digits of the manifest's SHA-256 that name the snapshot (its directory) */
export const SNAPSHOT_ID_LENGTH = 16;

/**
 * [offset, length, CRC-32 of those bytes, shard] of a byte range in one of the page files: the
 * page file of its kind (identity, br or gzip) of that shard (layout.ts pageFileName). A page's
 * ranges all name the same shard.
 */
export type Range = readonly [number, number, number, number];

export interface PageEntry {
  /** strong ETag of the identity body */
  readonly etag: string;
  readonly body: Range;
  readonly br?: Range;
  readonly gzip?: Range;
  readonly link?: string;
  readonly noindex?: true;
}

/** What a file of the snapshot must be: its size in bytes and SHA-256 (hex). */
export interface FileRecord {
  readonly size: number;
  readonly sha256: string;
}

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly apiVersion: string;
  readonly baseUrl: string;
  readonly counts: Readonly<Record<string, number>>;
  /** every file of the snapshot besides the manifest, by name, sorted */
  readonly files: Readonly<Record<string, FileRecord>>;
  /** sorted by key; written one page a line, so a reader can take it a line at a time */
  readonly pages: Readonly<Record<string, PageEntry>>;
}

/** The manifest without its pages: the first line of the file. */
export type ManifestHead = Omit<Manifest, 'pages'>;

/**
 * The base URL a snapshot was built for, from the head of its manifest (where the build writes
 * it, before the pages): a server starting up need not parse a manifest of 300,000 pages for it.
 * Undefined for a head of another format (the caller rebuilds).
 */
/** The base URL a manifest file was built for, read from its first 4 KB (never the whole file). */
export function readManifestBaseUrl(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    return manifestBaseUrl(head.toString('utf8', 0, readSync(fd, head, 0, head.length, 0)));
  } finally {
    closeSync(fd);
  }
}

export function manifestBaseUrl(head: string): string | undefined {
  const match = new RegExp(`^\\{"format":${MANIFEST_FORMAT},"apiVersion":"[^"]*","baseUrl":("(?:[^"\\\\]|\\\\.)*")`).exec(head);
  return match ? (JSON.parse(match[1]!) as string) : undefined;
}

/** The text of a manifest: the head on the first line, then one page a line (valid JSON as a whole). */
export function* manifestLines(manifest: Manifest): Generator<string> {
  const { pages, ...head } = manifest;
  yield* manifestLinesOf(head, Object.entries(pages));
}

/** The same text from a head and the pages in key order, given one at a time (nothing else held). */
export function* manifestLinesOf(head: ManifestHead, pages: Iterable<[string, PageEntry]>): Generator<string> {
  yield `${JSON.stringify(head).slice(0, -1)},"pages":{`;
  let first = true;
  for (const [key, entry] of pages) {
    yield `\n${first ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(entry)}`;
    first = false;
  }
  yield '\n}}';
}

/** The head of a manifest from its first line; throws when the line is not one. */
export function parseManifestHead(line: string): ManifestHead {
  if (!line.endsWith(',"pages":{')) throw new Error('the manifest has no pages table');
  return JSON.parse(`${line.slice(0, -',"pages":{'.length)}}`) as ManifestHead;
}

/** One page line of a manifest (`"key":{...}`, after the first with a leading comma). */
export function parseManifestPage(line: string): [string, PageEntry] {
  const text = line.startsWith(',') ? line.slice(1) : line;
  const entry = JSON.parse(`{${text}}`) as Record<string, PageEntry>;
  const keys = Object.keys(entry);
  if (keys.length !== 1) throw new Error('a manifest line holds no page');
  return [keys[0]!, entry[keys[0]!]!];
}
