import { discovery } from '../../api/handlers/discovery.ts';
import { serveEndpoint } from '../../server/astro-routes.ts';

export const GET = serveEndpoint(discovery);
