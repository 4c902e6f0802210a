import { videoRelated } from '../../../../api/handlers/video-related.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(videoRelated);
