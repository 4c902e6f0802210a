import { batchVideos } from '../../../api/handlers/batch-videos.ts';
import { serveEndpoint } from '../../../server/astro-routes.ts';

export const GET = serveEndpoint(batchVideos);
