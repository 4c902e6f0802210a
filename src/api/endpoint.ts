// An endpoint: how to read a request (path and query → typed params), its canonical URL, and one
// pure handler (params, context) → answer. The snapshot build and the server both call these, so
// prerendered and dynamic answers are byte-identical by construction.
import type { z } from 'zod';
import type { ProblemSlug } from './problems.ts';
import type { Model } from '../model/build-model.ts';
import type { UsageRow } from '../catalogue/api-keys.ts';
import type { StoredAlert } from '../catalogue/read-alerts.ts';
import type { StatusComponent } from '../model/schemas.ts';
import type { PublicLiveStream } from '../catalogue/public-catalogue.ts';
import type { SearchIndex } from '../search/search-index.ts';

export interface SnapshotInfo {
  readonly id: string;
  readonly videos: number;
  readonly pages: number;
  readonly loadedAt: string;
}

/** Who made a request: no Authorization, one that is not a bearer token, an unknown or revoked key, or an app. */
export type Caller =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'no-key' }
  | { readonly kind: 'invalid-key' }
  | { readonly kind: 'app'; readonly appId: string; readonly appName: string };

/** A rate-limit lane's state after the request (docs/api-contract.md §7). */
export interface Quota {
  readonly lane: 'public' | 'site' | 'key';
  readonly limit: number;
  readonly remaining: number;
  /** seconds until the window resets */
  readonly reset: number;
  /** window length in seconds */
  readonly window: number;
}

/** What the server knows of the request beyond its URL (absent when the build renders pages). */
export interface RequestInfo {
  readonly caller: Caller;
  readonly quota: Quota | undefined;
  usage(appId: string): readonly UsageRow[];
}

/** The service's checks of itself at one moment, for /v1/status. */
export interface StatusReport {
  readonly checkedAt: string;
  readonly components: readonly StatusComponent[];
  /** since when each component has had its current status */
  readonly since: Readonly<Record<string, string>>;
  /** operator alerts in force now */
  readonly alerts: readonly StoredAlert[];
}

export interface Context {
  readonly model: Model;
  readonly snapshot: SnapshotInfo | undefined;
  /** live-stream records as of now (the build passes the snapshot's own) */
  liveStreams(): readonly PublicLiveStream[];
  readonly request?: RequestInfo | undefined;
  /** the snapshot's search index (built from the model on first use when absent) */
  readonly search?: SearchIndex | undefined;
  /** the service's self-checks (absent when the build renders pages) */
  status?(): StatusReport;
}

export interface Answer {
  readonly body: unknown;
  readonly status?: number;
  /** canonical path and query of the next page, sent as an RFC 8288 `Link` */
  readonly next?: string | undefined;
  /** unlisted resources are not for search engines */
  readonly noindex?: boolean;
  /** `body`'s JSON as UTF-8, when the handler writes it without making the body (paging.ts paginatePositions) */
  readonly bytes?: (() => Buffer) | undefined;
}

/**
 * How long caches may keep an answer: `snapshot` answers change only with a rebuild, `live` ones
 * with the live state in the catalogue, `none` at any time; `private` ones are for their caller only.
 */
export type CachePolicy = 'snapshot' | 'live' | 'none' | 'private';

/** What the published API description (/openapi.json) says of an endpoint beyond its schemas. */
export interface EndpointDocs {
  readonly summary: string;
  readonly description: string;
  readonly tag: 'Videos' | 'Channels' | 'Playlists' | 'Discovery' | 'Search' | 'Live' | 'Service' | 'Partner' | 'Embeds';
  /** problems it may answer beyond those its shape implies (400 with a query, 404 with a path key, 429, 503) */
  readonly problems?: readonly ProblemSlug[];
  /** with no snapshot loaded, it answers 503 in its own shape rather than as a problem (health) */
  readonly ownShapeWhenUnavailable?: true;
  /** it may answer an unlisted resource, with `X-Robots-Tag: noindex` */
  readonly mayBeUnlisted?: true;
}

export interface Endpoint<P = unknown> {
  readonly name: string;
  /** `/v1/videos/:id/comments`: `:name` matches one path segment */
  readonly path: string;
  /** the query parameters it reads (and parse validates with): the description's parameters */
  readonly query: z.ZodObject;
  readonly response: z.ZodType;
  readonly docs: EndpointDocs;
  readonly cache: CachePolicy;
  parse(path: Readonly<Record<string, string>>, search: URLSearchParams): P;
  canonical(params: P): string;
  handle(params: P, context: Context): Answer;
}

export const defineEndpoint = <P>(endpoint: Endpoint<P>): Endpoint<P> => endpoint;
