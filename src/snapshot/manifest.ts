// The snapshot manifest: every prerendered page by canonical URL, with where its bytes are
// (identity in pages.bin, br in pages.br.bin, gzip in pages.gz.bin) and its extra headers.

/** [offset, length] of a byte range in one of the page files */
export type Range = readonly [number, number];

export interface PageEntry {
  /** strong ETag of the identity body */
  readonly etag: string;
  readonly body: Range;
  readonly br?: Range;
  readonly gzip?: Range;
  readonly link?: string;
  readonly noindex?: true;
}

export interface Manifest {
  readonly format: 1;
  readonly apiVersion: string;
  readonly baseUrl: string;
  readonly counts: Readonly<Record<string, number>>;
  /** sorted by key */
  readonly pages: Readonly<Record<string, PageEntry>>;
}

/**
 * The base URL a snapshot was built for, from the head of its manifest (where the build writes
 * it, before the pages): a server starting up need not parse a manifest of 300,000 pages for it.
 */
export function manifestBaseUrl(head: string): string | undefined {
  const match = /^\{"format":1,"apiVersion":"[^"]*","baseUrl":("(?:[^"\\]|\\.)*")/.exec(head);
  return match ? (JSON.parse(match[1]!) as string) : undefined;
}
