import { videoComments } from '../../../../api/handlers/video-comments.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(videoComments);
