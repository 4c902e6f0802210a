import { health } from '../../api/handlers/health.ts';
import { serveEndpoint } from '../../server/astro-routes.ts';

export const GET = serveEndpoint(health);
