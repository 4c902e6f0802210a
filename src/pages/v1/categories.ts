import { listCategories } from '../../api/handlers/list-categories.ts';
import { serveEndpoint } from '../../server/astro-routes.ts';

export const GET = serveEndpoint(listCategories);
