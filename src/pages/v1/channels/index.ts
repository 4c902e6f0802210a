import { listChannels } from '../../../api/handlers/list-channels.ts';
import { serveEndpoint } from '../../../server/astro-routes.ts';

export const GET = serveEndpoint(listChannels);
