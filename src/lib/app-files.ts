// Where the built app lives (npm run build:app): Astro's server entry, and the static files served
// as they are (public/, the player's bundle, the SDK, the API description).
import { join } from 'node:path';

export const ASTRO_ENTRY = join('dist', 'app', 'server', 'entry.mjs');
export const CLIENT_DIR = join('dist', 'app', 'client');
