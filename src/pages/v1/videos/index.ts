import { listVideos } from '../../../api/handlers/list-videos.ts';
import { serveEndpoint } from '../../../server/astro-routes.ts';

export const GET = serveEndpoint(listVideos);
