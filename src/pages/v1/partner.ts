import { partner } from '../../api/handlers/partner.ts';
import { serveEndpoint } from '../../server/astro-routes.ts';

export const GET = serveEndpoint(partner);
