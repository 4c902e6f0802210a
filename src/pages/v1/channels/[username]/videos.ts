import { channelVideos } from '../../../../api/handlers/channel-videos.ts';
import { serveEndpoint } from '../../../../server/astro-routes.ts';

export const GET = serveEndpoint(channelVideos);
