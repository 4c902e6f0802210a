// Astro serves the on-demand routes (src/pages) in middleware mode, inside our own node:http
// server (src/server). Static pages never go through Astro: the snapshot serves them.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'server',
  outDir: './dist/app',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'always' },
  devToolbar: { enabled: false },
  telemetry: false,
});
