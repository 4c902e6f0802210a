import { describe, expect, it } from 'vitest';
import type { Context } from '../../../../src/api/endpoint.ts';
import { listLive } from '../../../../src/api/handlers/list-live.ts';
import { LivePage, type LiveChannel } from '../../../../src/model/schemas.ts';
import type { PublicLiveStream } from '../../../../src/catalogue/public-catalogue.ts';
import { catalogueOf, channel, liveStream, modelOf } from '../../support/fixtures.ts';
import { call, pageOf, problemOf, type PageBody } from '../../support/handlers.ts';

const at = (h: number) => `2026-03-01T${String(h).padStart(2, '0')}:00:00Z`;
const model = modelOf(catalogueOf({
  channels: ['amy', 'bob', 'cat', 'dan', 'eve'].map((u) => channel(u)),
  // the snapshot's copy, which the request-time records replace
  live: [liveStream('eve', 'live', { startedAt: at(1), viewers: 1_000 })],
}));
const now: PublicLiveStream[] = [
  liveStream('cat', 'offline'),
  liveStream('dan', 'upcoming', { scheduledFor: at(18) }),
  liveStream('amy', 'live', { startedAt: at(8), viewers: 20 }),
  liveStream('bob', 'live', { startedAt: at(9), viewers: 300 }),
  liveStream('eve', 'upcoming', { scheduledFor: at(15) }),
];

/** /v1/live answered with `streams` as the live state of the request. */
function live(query = '', streams: readonly PublicLiveStream[] = now): { page: PageBody<LiveChannel>; next: string | undefined } {
  const context: Context = { model, snapshot: undefined, liveStreams: () => streams };
  const answer = listLive.handle(listLive.parse({}, new URLSearchParams(query)), context);
  expect(LivePage.safeParse(answer.body).success).toBe(true);
  return { page: pageOf<LiveChannel>(answer), next: answer.next };
}
const names = (query = '', streams?: readonly PublicLiveStream[]) => live(query, streams).page.data.map((c) => c.channel.username);

describe('listLive', () => {
  it('lists channels live now by default, most viewers first', () => {
    const { page } = live();
    expect(page.data.map((c) => c.channel.username)).toEqual(['bob', 'amy']);
    expect(page.data.map((c) => c.viewers)).toEqual([300, 20]);
    expect(page.paging).toEqual({ limit: 20, offset: 0, total: 2, nextCursor: null });
  });

  it('answers the same for state=live as for no state', () => {
    expect(live('state=live').page).toEqual(live().page);
  });

  it('lists every channel with a record for state=all: live, then upcoming soonest first, then offline', () => {
    expect(names('state=all')).toEqual(['bob', 'amy', 'eve', 'dan', 'cat']);
  });

  it('answers 400 for state=soon, naming the accepted values', () => {
    const error = problemOf(() => listLive.parse({}, new URLSearchParams('state=soon')));
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ parameter: 'state', detail: 'must be one of live, all' }]);
  });

  it('reads live records from the context at request time, not the model\'s build-time copy', () => {
    expect(names()).not.toContain('eve');
    expect(names('', [])).toEqual([]);
    // the shared helper passes the model's own copy, where eve is live
    expect(pageOf<LiveChannel>(call(listLive, model)).data.map((c) => c.channel.username)).toEqual(['eve']);
  });

  it('asks the context for live records on every request', () => {
    let calls = 0;
    const context: Context = { model, snapshot: undefined, liveStreams: () => { calls++; return now; } };
    const params = listLive.parse({}, new URLSearchParams());
    listLive.handle(params, context);
    listLive.handle(params, context);
    expect(calls).toBe(2);
  });

  it('skips records of unknown channels', () => {
    expect(names('state=all', [liveStream('ghost', 'live', { startedAt: at(1), viewers: 5 }), ...now])).not.toContain('ghost');
  });

  it('pages with cursors scoped to the state', () => {
    const first = live('state=all&limit=2');
    expect(first.page.data.map((c) => c.channel.username)).toEqual(['bob', 'amy']);
    expect(first.next).toMatch(/^\/v1\/live\?cursor=[^&]+&limit=2&state=all$/);
    const cursor = first.page.paging.nextCursor!;
    expect(names(`state=all&limit=2&cursor=${cursor}`)).toEqual(['eve', 'dan']);
    expect(problemOf(() => live(`limit=2&cursor=${cursor}`)).errors?.map((e) => e.parameter)).toEqual(['cursor']);
  });

  it('answers 400 when limit is 51', () => {
    expect(problemOf(() => live('limit=51')).errors?.map((e) => e.parameter)).toEqual(['limit']);
  });

  it('has the same canonical URL with the default state given or left out, cached by live state', () => {
    const canonical = (query: string) => listLive.canonical(listLive.parse({}, new URLSearchParams(query)));
    expect(canonical('')).toBe('/v1/live?limit=20&state=live');
    expect(canonical('state=live&limit=20')).toBe(canonical(''));
    expect(canonical('state=all')).toBe('/v1/live?limit=20&state=all');
    expect(listLive.cache).toBe('live');
  });
});
