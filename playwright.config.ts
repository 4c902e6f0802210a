// Browser tests (tests/browser/*.spec.ts) in real Chromium (tests/browser/chromium.ts says which);
// Playwright never downloads a browser. Each worker starts its own server over a freshly built
// demo snapshot (tests/browser/site.ts).
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './tests/browser/chromium.ts';

const chromium = await chromiumPath();

export default defineConfig({
  testDir: 'tests/browser',
  testMatch: '*.spec.ts',
  workers: 1,
  forbidOnly: true,
  reporter: process.env['CI'] ? 'line' : 'list',
  timeout: 60_000,
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromium,
      // Quiet on a closed network: no background requests to Google's hosts.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
