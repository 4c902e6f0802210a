// The /docs samples: every endpoint has an SDK method the client really has, and the SDK call of a
// request carries the same path keys and parameters (typed: integers as numbers), with the two
// methods whose arguments differ (getVideos takes an array, oembed the URL first).
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../src/api/routes.ts';
import { SDK_METHODS, sdkCallOf } from '../../../src/openapi/docs-samples.ts';
import { createClient } from '../../../src/sdk/client.ts';

const byName = (name: string) => ENDPOINTS.find((e) => e.name === name)!;

describe('the SDK calls of the /docs samples', () => {
  it('name a method of the SDK client for every endpoint', () => {
    const client = createClient({ baseUrl: 'http://sdk.invalid' });
    for (const endpoint of ENDPOINTS) expect(typeof client[SDK_METHODS[endpoint.name]!], endpoint.name).toBe('function');
    expect(Object.keys(SDK_METHODS).sort()).toEqual(ENDPOINTS.map((e) => e.name).sort());
  });

  it('pass path keys in order, then the query as an object with integers as numbers', () => {
    expect(sdkCallOf(byName('list-videos'), '/v1/videos?limit=2&sort=views')).toEqual({ method: 'listVideos', args: [{ limit: 2, sort: 'views' }] });
    expect(sdkCallOf(byName('get-video'), '/v1/videos/a%2Eb')).toEqual({ method: 'getVideo', args: ['a.b'] });
    expect(sdkCallOf(byName('channel-videos'), '/v1/channels/alice/videos?limit=2')).toEqual({ method: 'listChannelVideos', args: ['alice', { limit: 2 }] });
    expect(sdkCallOf(byName('search'), '/v1/search?q=2024&type=all')).toEqual({ method: 'search', args: [{ q: '2024', type: 'all' }] });
    expect(sdkCallOf(byName('discovery'), '/v1/discovery')).toEqual({ method: 'getDiscovery', args: [] });
  });

  it('give getVideos its ids as an array and oembed its URL first', () => {
    expect(sdkCallOf(byName('batch-videos'), '/v1/videos/batch?ids=a,b,no-such-video')).toEqual({ method: 'getVideos', args: [['a', 'b', 'no-such-video']] });
    expect(sdkCallOf(byName('oembed'), `/oembed?url=${encodeURIComponent('http://x.test/watch/a')}&maxwidth=480`)).toEqual({ method: 'oembed', args: ['http://x.test/watch/a', { maxwidth: 480 }] });
  });
});
