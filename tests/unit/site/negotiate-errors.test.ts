// Which clients get the HTML error page (src/site/negotiate-errors.ts): browsers on site paths;
// never API paths, JSON clients, ties, image requests or unreadable weights.
import { describe, expect, it } from 'vitest';
import { isApiPath, prefersHtml } from '../../../src/site/negotiate-errors.ts';

const CHROMIUM = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const SAFARI = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('prefersHtml', () => {
  it('browsers navigating to a site path get HTML', () => {
    for (const accept of [CHROMIUM, FIREFOX, SAFARI, 'text/html', 'text/*', 'TEXT/HTML; q=1']) expect(prefersHtml('/watch/x', accept), accept).toBe(true);
  });

  it('everyone else gets problem+json', () => {
    for (const accept of [undefined, null, '', '*/*', 'application/json', 'application/problem+json', 'text/html, application/json',
      'text/html;q=0.5, application/json', 'image/avif,image/webp,*/*;q=0.8', 'text/html;q=0', 'text/html;q=abc', 'text/html;q=2', 'nonsense', '*/*;q=0.8, text/plain']) {
      expect(prefersHtml('/watch/x', accept), String(accept)).toBe(false);
    }
  });

  it('API paths always get problem+json', () => {
    for (const path of ['/v1', '/v1/videos/x', '/oembed', '/openapi.json']) {
      expect(isApiPath(path)).toBe(true);
      expect(prefersHtml(path, CHROMIUM), path).toBe(false);
    }
    for (const path of ['/', '/v1x', '/watch/v1', '/docs/', '/oembedx']) expect(isApiPath(path), path).toBe(false);
  });

  it('reads a bounded Accept header', () => {
    expect(prefersHtml('/x', `${'a/b,'.repeat(10_000)}text/html`)).toBe(false);
  });
});
