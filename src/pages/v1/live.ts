import { listLive } from '../../api/handlers/list-live.ts';
import { serveEndpoint } from '../../server/astro-routes.ts';

export const GET = serveEndpoint(listLive);
