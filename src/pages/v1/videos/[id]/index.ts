import { getVideo } from '../../../../api/handlers/get-video.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(getVideo);
