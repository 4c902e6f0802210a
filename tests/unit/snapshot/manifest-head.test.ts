import { describe, expect, it } from 'vitest';
import { MANIFEST_FORMAT, manifestBaseUrl } from '../../../src/snapshot/manifest.ts';

describe('manifestBaseUrl', () => {
  it('reads the base URL from the head of a manifest as the build writes it', () => {
    const head = `${JSON.stringify({ format: MANIFEST_FORMAT, apiVersion: '1.5.2', baseUrl: 'https://videos.example', counts: { videos: 1, pages: 2 }, files: {} }).slice(0, -1)},"pages":{"/v1/categories":`;
    expect(manifestBaseUrl(head)).toBe('https://videos.example');
    expect(manifestBaseUrl(head.slice(0, 70))).toBe('https://videos.example');
  });

  it('says nothing for a head of another form, so the caller rebuilds', () => {
    expect(manifestBaseUrl(`{"format":${MANIFEST_FORMAT},"baseUrl":"https://videos.example"}`)).toBeUndefined();
    expect(manifestBaseUrl('{"format":1,"apiVersion":"1.5.2","baseUrl":"https://videos.example","counts":{}')).toBeUndefined();
    expect(manifestBaseUrl(`{"format":${MANIFEST_FORMAT},"apiVersion":"1.5.2","baseUrl":"https://vid`)).toBeUndefined();
    expect(manifestBaseUrl('')).toBeUndefined();
  });
});
