// The request and response samples of the /docs page, per operation: a sample request chosen on
// the catalogue being served (examples.ts sampleRequest: the same choice the description's examples
// make on the demo catalogue, so on `npm start` they are the same requests), its answer from the
// endpoint's own handler, and the same request as curl and as an SDK call, against the deployment's
// own origin. Computed once per loaded model.
import { z } from 'zod';
import type { Context, Endpoint } from '../api/endpoint.ts';
import { ENDPOINTS } from '../api/routes.ts';
import type { Model } from '../model/build-model.ts';
import type { Client } from '../sdk/client.ts';
import { operationIdOf } from './build-document.ts';
import { answerOf, sampleRequest, type DemoAnswer } from './examples.ts';

type Method = Exclude<keyof Client, 'baseUrl'>;

/**
 * The SDK method of each endpoint (src/sdk/client.ts). Its arguments follow one rule: the path keys
 * in order, then the query as an object; `getVideos` takes the ids as an array and `oembed` the
 * URL first. tests/unit/openapi/docs-samples.test.ts checks every endpoint has one.
 */
export const SDK_METHODS: Readonly<Record<string, Method>> = {
  'list-videos': 'listVideos', 'batch-videos': 'getVideos', 'get-video': 'getVideo', 'video-playback': 'getPlayback',
  'video-related': 'listRelated', 'video-comments': 'listComments', 'list-channels': 'listChannels', 'get-channel': 'getChannel',
  'channel-videos': 'listChannelVideos', 'channel-playlists': 'listChannelPlaylists', 'get-playlist': 'getPlaylist',
  'playlist-videos': 'listPlaylistVideos', discovery: 'getDiscovery', 'list-categories': 'listCategories', 'list-live': 'listLive',
  search: 'search', health: 'getHealth', status: 'getStatus', partner: 'getPartner', oembed: 'oembed',
};

export interface SdkCall {
  readonly method: Method;
  readonly args: readonly unknown[];
}

export interface OperationSample {
  /** path and query */
  readonly request: string;
  /** the answer's status and body (on the served catalogue, or the description's example) */
  readonly answer: DemoAnswer | undefined;
  readonly curl: string;
  readonly sdk: string;
  readonly call: SdkCall;
  /** whether the operation needs a developer key */
  readonly needsKey: boolean;
}

const needsKey = (endpoint: Endpoint<any>) => endpoint.docs.problems?.includes('api-key-required') ?? false;

/** The SDK call that sends `request` to `endpoint`. */
export function sdkCallOf(endpoint: Endpoint<any>, request: string): SdkCall {
  const method = SDK_METHODS[endpoint.name];
  if (!method) throw new Error(`No SDK method is named for the endpoint ${endpoint.name} (src/openapi/docs-samples.ts).`);
  const url = new URL(request, 'http://sample.invalid');
  const actual = url.pathname.split('/');
  const keys = endpoint.path.split('/').flatMap((segment, i) => (segment.startsWith(':') ? [decodeURIComponent(actual[i]!)] : []));
  const types = (z.toJSONSchema(endpoint.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const query: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) query[name] = types[name]?.type === 'integer' ? Number(value) : value;
  if (method === 'getVideos') return { method, args: [String(query['ids']).split(',')] };
  if (method === 'oembed') {
    const { url: target, id: _id, ...rest } = query;
    return { method, args: Object.keys(rest).length > 0 ? [target, rest] : [target] };
  }
  return { method, args: Object.keys(query).length > 0 ? [...keys, query] : keys };
}

const js = (value: unknown) => JSON.stringify(value).replace(/"([A-Za-z_$][\w$]*)":/g, '$1: ').replace(/,(?=[A-Za-z_$"'[{])/g, ', ').replace(/"/g, "'");

function sdkText(call: SdkCall, base: string, key: boolean): string {
  const lines = [
    `<script src="${base}/sdk.js"></script>`,
    '<script type="module">',
    `  const client = VideoPlatform.createClient(${key ? "{ apiKey: 'YOUR_KEY' }" : ''});`,
    `  const answer = await client.${call.method}(${call.args.map(js).join(', ')});`,
    '  console.log(answer);',
    '</script>',
  ];
  return lines.join('\n');
}

const quoteShell = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function sampleOf(endpoint: Endpoint<any>, request: string, answer: DemoAnswer | undefined, base: string): OperationSample {
  const key = needsKey(endpoint);
  const call = sdkCallOf(endpoint, request);
  return {
    request,
    answer,
    curl: `curl -s${key ? " -H 'Authorization: Bearer YOUR_KEY'" : ''} ${quoteShell(`${base}${request}`)}`,
    sdk: sdkText(call, base, key),
    call,
    needsKey: key,
  };
}

const cache = new WeakMap<Model, Map<string, OperationSample>>();

/**
 * The samples of every endpoint, by operationId, on the served catalogue. Answers are shown only
 * for endpoints whose answers anyone may see and that stay as they are for a snapshot (`snapshot`
 * and `live` caching): never a caller's own (partner statistics), never a moment's (status).
 */
export function operationSamples(context: Context): Map<string, OperationSample> {
  const known = cache.get(context.model);
  if (known) return known;
  const base = context.model.urls.base;
  const samples = new Map<string, OperationSample>();
  for (const endpoint of ENDPOINTS) {
    const request = sampleRequest(endpoint, context.model);
    const shareable = endpoint.cache === 'snapshot' || endpoint.cache === 'live';
    const answer = shareable ? answerOf(endpoint, request, { ...context, request: undefined }) : undefined;
    samples.set(operationIdOf(endpoint), sampleOf(endpoint, request, answer?.status === 200 ? answer : undefined, base));
  }
  cache.set(context.model, samples);
  return samples;
}
