// Where the built app lives (npm run build:app): Astro's server entry, and the static files served
// as they are (public/, the player's bundle, the SDK, the API description).
import { join } from 'node:path';

export const ASTRO_ENTRY = join('dist', 'app', 'server', 'entry.mjs');
export const CLIENT_DIR = join('dist', 'app', 'client');

/**
 * The server as `npm start` runs it: bundled into plain JavaScript by scripts/build-server.ts (a
 * step of build:app), so that neither the supervisor nor a serving process loads TypeScript's type
 * stripping (docs/architecture.md, "The server runs as bundled JavaScript").
 */
export const SERVER_BUNDLE_DIR = join('dist', 'app', 'start');
export const SUPERVISOR_BUNDLE = join(SERVER_BUNDLE_DIR, 'supervisor.mjs');
export const SERVING_BUNDLE = join(SERVER_BUNDLE_DIR, 'serving.mjs');
/** The folders the server's bundles are made of: `npm start` rebuilds them when a file there is newer. */
export const SERVER_SOURCES = ['src', join('scripts', 'start')] as const;
