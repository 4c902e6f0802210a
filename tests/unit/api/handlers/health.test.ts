import { describe, expect, it } from 'vitest';
import { health } from '../../../../src/api/handlers/health.ts';
import { catalogueOf, modelOf } from '../../support/fixtures.ts';
import { call } from '../../support/handlers.ts';

describe('health', () => {
  it('answers 503 with the same shape when no snapshot is loaded', () => {
    const answer = call(health, modelOf(catalogueOf({})));
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ data: { snapshot: null } });
  });

  it('answers 200 ok with the loaded snapshot', () => {
    const snapshot = { id: 'abc', videos: 1, pages: 2, loadedAt: '2026-01-01T00:00:00Z' };
    const answer = health.handle({}, { model: modelOf(catalogueOf({})), snapshot, liveStreams: () => [] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: { status: 'ok', snapshot } });
    expect(health.response.safeParse(answer.body).success).toBe(true);
  });
});
