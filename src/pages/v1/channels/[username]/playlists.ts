import { channelPlaylists } from '../../../../api/handlers/channel-playlists.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(channelPlaylists);
