import { status } from '../../api/handlers/status.ts';
import { serveEndpoint } from '../../server/astro-routes.ts';

export const GET = serveEndpoint(status);
