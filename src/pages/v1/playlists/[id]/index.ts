import { getPlaylist } from '../../../../api/handlers/get-playlist.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(getPlaylist);
