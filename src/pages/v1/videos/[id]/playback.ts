import { videoPlayback } from '../../../../api/handlers/video-playback.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(videoPlayback);
