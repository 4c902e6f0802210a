import { playlistVideos } from '../../../../api/handlers/playlist-videos.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(playlistVideos);
