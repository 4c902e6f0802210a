// The SDK's API client: one typed method per endpoint of the public API, lists as awaitable and
// async-iterable page queries, errors that carry the problem document, timeouts. Types come from
// the server's own zod schemas (type-only imports: nothing of zod reaches the bundle).
import type { z } from 'zod';
import type {
  Category, Channel, CommentThread, Discovery, Health, LiveChannel, OEmbed, Paging, PartnerStats, Playback,
  Playlist, Problem, SearchResult, Status, Video, VideoBatch,
} from '../model/schemas.ts';
import type {
  ChannelSort as ChannelSortSchema, DurationFilter, FeatureFilter, LiveStateFilter, SearchType, VideoSort as VideoSortSchema,
} from '../api/params.ts';
import { defaultBaseUrl } from './origin.ts';

export type { Category, Channel, CommentThread, Discovery, LiveChannel, OEmbed, Paging, PartnerStats, Playback, Playlist, Problem, SearchResult, Status, Video, VideoBatch };
export type HealthReport = z.infer<typeof Health>;
/** The values of list parameters, from the API's own enums (src/api/params.ts). */
export type VideoSort = z.infer<typeof VideoSortSchema>;
export type DurationClass = z.infer<typeof DurationFilter>;
export type VideoFeature = z.infer<typeof FeatureFilter>;
export type ChannelSort = z.infer<typeof ChannelSortSchema>;
export type SearchKind = z.infer<typeof SearchType>;
export type LiveState = z.infer<typeof LiveStateFilter>;

/** A non-2xx answer: its status and the RFC 9457 problem document the API sent. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly problem: Problem | undefined;
  readonly url: string;
  /** seconds to wait before retrying, from Retry-After (429, 503) */
  readonly retryAfter: number | undefined;
  constructor(status: number, problem: Problem | undefined, url: string, retryAfter: number | undefined) {
    super(problem ? `${problem.title}: ${problem.detail}` : `The API answered ${status} for ${url}`);
    this.status = status;
    this.problem = problem;
    this.url = url;
    this.retryAfter = retryAfter;
  }
}

/** No answer within the client's timeout. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly url: string;
  constructor(url: string, ms: number) {
    super(`No answer from ${url} within ${ms} ms`);
    this.url = url;
  }
}

export interface ClientOptions {
  /** the service's origin; defaults to where the SDK was loaded from */
  readonly baseUrl?: string;
  /** a developer key, sent as `Authorization: Bearer` (needed for getPartner) */
  readonly apiKey?: string;
  /** per request, in ms (default 10000) */
  readonly timeout?: number;
  readonly fetch?: typeof fetch;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
}

export interface Page<T> {
  readonly data: T[];
  readonly paging: Paging;
}

export interface PagingParams {
  readonly limit?: number;
  readonly cursor?: string;
  readonly offset?: number;
}

export interface ListVideosParams extends PagingParams {
  readonly sort?: VideoSort;
  readonly category?: string;
  readonly creator?: string;
  readonly duration?: DurationClass;
  readonly feature?: VideoFeature;
  readonly q?: string;
}

export interface ListChannelsParams extends PagingParams {
  readonly q?: string;
  readonly sort?: ChannelSort;
}

export interface SearchParams extends PagingParams {
  readonly q: string;
  readonly type?: SearchKind;
}

export interface ListLiveParams extends PagingParams {
  readonly state?: LiveState;
}

export interface OEmbedParams {
  readonly maxwidth?: number;
  readonly maxheight?: number;
}

/**
 * A list request: `await` it for the first page, `for await` over it for every page in turn
 * (following `paging.nextCursor`), or `for await` over `.items()` for every item.
 */
export interface PageQuery<T> extends PromiseLike<Page<T>>, AsyncIterable<Page<T>> {
  items(): AsyncIterable<T>;
}

type Query = Readonly<Record<string, string | number | undefined>>;

export interface Client {
  readonly baseUrl: string;
  listVideos(params?: ListVideosParams, options?: RequestOptions): PageQuery<Video>;
  /** `/v1/videos/batch`: up to 50 ids; ids not found (or private) come back in `missing` */
  getVideos(ids: readonly string[], options?: RequestOptions): Promise<VideoBatch>;
  getVideo(id: string, options?: RequestOptions): Promise<Video>;
  getPlayback(id: string, options?: RequestOptions): Promise<Playback>;
  listRelated(id: string, params?: PagingParams, options?: RequestOptions): PageQuery<Video>;
  listComments(id: string, params?: PagingParams, options?: RequestOptions): PageQuery<CommentThread>;
  listChannels(params?: ListChannelsParams, options?: RequestOptions): PageQuery<Channel>;
  getChannel(username: string, options?: RequestOptions): Promise<Channel>;
  listChannelVideos(username: string, params?: PagingParams, options?: RequestOptions): PageQuery<Video>;
  listChannelPlaylists(username: string, params?: PagingParams, options?: RequestOptions): PageQuery<Playlist>;
  getPlaylist(id: string, options?: RequestOptions): Promise<Playlist>;
  listPlaylistVideos(id: string, params?: PagingParams, options?: RequestOptions): PageQuery<Video>;
  getDiscovery(options?: RequestOptions): Promise<Discovery>;
  listCategories(options?: RequestOptions): Promise<Category[]>;
  search(params: SearchParams, options?: RequestOptions): PageQuery<SearchResult>;
  listLive(params?: ListLiveParams, options?: RequestOptions): PageQuery<LiveChannel>;
  getStatus(options?: RequestOptions): Promise<Status>;
  getHealth(options?: RequestOptions): Promise<HealthReport>;
  getPartner(options?: RequestOptions): Promise<PartnerStats>;
  /** `/oembed` for a watch or embed URL of this service */
  oembed(url: string, params?: OEmbedParams, options?: RequestOptions): Promise<OEmbed>;
}

const seg = encodeURIComponent;

export function createClient(options: ClientOptions = {}): Client {
  const baseUrl = (options.baseUrl ?? defaultBaseUrl()).replace(/\/+$/, '');
  const timeout = options.timeout ?? 10_000;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function get<T>(path: string, query: Query = {}, request: RequestOptions = {}): Promise<T> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const url = `${baseUrl}${path}${search.size > 0 ? `?${search}` : ''}`;
    const timer = new AbortController();
    const timeoutId = setTimeout(() => timer.abort(), timeout);
    const signal = request.signal ? AbortSignal.any([request.signal, timer.signal]) : timer.signal;
    let response: Response;
    try {
      response = await doFetch(url, { headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}, signal });
      if (response.ok) return (await response.json()) as T;
      const type = response.headers.get('content-type') ?? '';
      const problem = type.startsWith('application/problem+json') ? (await response.json()) as Problem : undefined;
      const retryAfter = response.headers.get('retry-after');
      throw new ApiError(response.status, problem, url, retryAfter === null ? undefined : Number(retryAfter));
    } catch (error) {
      if (timer.signal.aborted && !request.signal?.aborted) throw new TimeoutError(url, timeout);
      throw error;
    } finally {
      clearTimeout(timeoutId);
    }
  }

  function pages<T>(path: string, params: Query = {}, request: RequestOptions = {}): PageQuery<T> {
    const first = () => get<Page<T>>(path, params, request);
    async function* all(): AsyncGenerator<Page<T>> {
      let page = await first();
      yield page;
      while (page.paging.nextCursor !== null) {
        page = await get<Page<T>>(path, { ...params, offset: undefined, cursor: page.paging.nextCursor }, request);
        yield page;
      }
    }
    return {
      then: (onFulfilled, onRejected) => first().then(onFulfilled, onRejected),
      [Symbol.asyncIterator]: () => all(),
      items: () => ({
        async* [Symbol.asyncIterator]() {
          for await (const page of all()) yield* page.data;
        },
      }),
    };
  }

  const data = async <T>(promise: Promise<{ data: T }>) => (await promise).data;
  const paging = (params: PagingParams = {}): Query => ({ limit: params.limit, cursor: params.cursor, offset: params.offset });

  return {
    baseUrl,
    listVideos: (params = {}, o) => pages('/v1/videos', { ...params }, o),
    getVideos: (ids, o) => get('/v1/videos/batch', { ids: ids.join(',') }, o),
    getVideo: (id, o) => data(get(`/v1/videos/${seg(id)}`, {}, o)),
    getPlayback: (id, o) => data(get(`/v1/videos/${seg(id)}/playback`, {}, o)),
    listRelated: (id, params, o) => pages(`/v1/videos/${seg(id)}/related`, paging(params), o),
    listComments: (id, params, o) => pages(`/v1/videos/${seg(id)}/comments`, paging(params), o),
    listChannels: (params = {}, o) => pages('/v1/channels', { ...params }, o),
    getChannel: (username, o) => data(get(`/v1/channels/${seg(username)}`, {}, o)),
    listChannelVideos: (username, params, o) => pages(`/v1/channels/${seg(username)}/videos`, paging(params), o),
    listChannelPlaylists: (username, params, o) => pages(`/v1/channels/${seg(username)}/playlists`, paging(params), o),
    getPlaylist: (id, o) => data(get(`/v1/playlists/${seg(id)}`, {}, o)),
    listPlaylistVideos: (id, params, o) => pages(`/v1/playlists/${seg(id)}/videos`, paging(params), o),
    getDiscovery: (o) => data(get('/v1/discovery', {}, o)),
    listCategories: (o) => data(get('/v1/categories', {}, o)),
    search: (params, o) => pages('/v1/search', { ...params }, o),
    listLive: (params = {}, o) => pages('/v1/live', { ...params }, o),
    getStatus: (o) => data(get('/v1/status', {}, o)),
    getHealth: (o) => data(get('/v1/health', {}, o)),
    getPartner: (o) => data(get('/v1/partner', {}, o)),
    oembed: (url, params = {}, o) => get('/oembed', { url, maxwidth: params.maxwidth, maxheight: params.maxheight }, o),
  };
}
