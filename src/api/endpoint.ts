// An endpoint: how to read a request (path and query → typed params), its canonical URL, and one
// pure handler (params, context) → answer. The snapshot build and the server both call these, so
// prerendered and dynamic answers are byte-identical by construction.
import type { z } from 'zod';
import type { Model } from '../model/build-model.ts';
import type { PublicLiveStream } from '../model/public-catalogue.ts';

export interface SnapshotInfo {
  readonly id: string;
  readonly videos: number;
  readonly pages: number;
  readonly loadedAt: string;
}

export interface Context {
  readonly model: Model;
  readonly snapshot: SnapshotInfo | undefined;
  /** live-stream records as of now (the build passes the snapshot's own) */
  liveStreams(): readonly PublicLiveStream[];
}

export interface Answer {
  readonly body: unknown;
  readonly status?: number;
  /** canonical path and query of the next page, sent as an RFC 8288 `Link` */
  readonly next?: string | undefined;
  /** unlisted resources are not for search engines */
  readonly noindex?: boolean;
}

/**
 * How long caches may keep an answer: `snapshot` answers change only with a rebuild, `live` ones
 * with the live state in the catalogue, `none` at any time.
 */
export type CachePolicy = 'snapshot' | 'live' | 'none';

export interface Endpoint<P = unknown> {
  readonly name: string;
  /** `/v1/videos/:id/comments`: `:name` matches one path segment */
  readonly path: string;
  readonly response: z.ZodType;
  readonly cache: CachePolicy;
  parse(path: Readonly<Record<string, string>>, search: URLSearchParams): P;
  canonical(params: P): string;
  handle(params: P, context: Context): Answer;
}

export const defineEndpoint = <P>(endpoint: Endpoint<P>): Endpoint<P> => endpoint;
