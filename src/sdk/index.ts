// The browser SDK (/sdk.js as the global `VideoPlatform`, /sdk.mjs as an ES module): the API
// client, embeds of the hosted player (new, or attached to an iframe already on the page), and
// oEmbed. See docs/embeds.md; its types are /sdk.d.ts.
import { createClient, type OEmbed, type OEmbedParams, type RequestOptions } from './client.ts';

export { ApiError, createClient, TimeoutError } from './client.ts';
export type * from './client.ts';
export { attach, attachAll, embed, embedQuery, IFRAME_ALLOW, PLAYER_EVENTS, PlayerError } from './embed.ts';
export type * from './embed.ts';

export { API_VERSION as version } from '../api/version.ts';

/** oEmbed for a watch or embed URL of this service (on the SDK's own origin unless `baseUrl` is given). */
export function oembed(url: string, params: OEmbedParams & { baseUrl?: string } = {}, options?: RequestOptions): Promise<OEmbed> {
  const { baseUrl, ...sizes } = params;
  return createClient(baseUrl === undefined ? {} : { baseUrl }).oembed(url, sizes, options);
}
