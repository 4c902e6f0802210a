import { getChannel } from '../../../../api/handlers/get-channel.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(getChannel);
