// The record schemas of the interchange format; here the rules a live record keeps by its state.
import { describe, expect, it } from 'vitest';
import { CatalogueRecord, LiveRecord } from '../../../src/catalogue/records.ts';

const T = '2026-03-01T10:00:00Z';

/** The paths and messages of the issues a record gets, or [] when it is accepted. */
function issuesOf(raw: Record<string, unknown>): { path: string; message: string }[] {
  const result = LiveRecord.safeParse({ kind: 'live', channel: 'alice', ...raw });
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('LiveRecord', () => {
  it('refuses a live record without startedAt, with a message on startedAt', () => {
    expect(issuesOf({ state: 'live', viewers: 3 })).toEqual([{ path: 'startedAt', message: 'is required when state is live' }]);
  });

  it('accepts a live record with startedAt, normalising it to UTC', () => {
    expect(issuesOf({ state: 'live', startedAt: T })).toEqual([]);
    expect(LiveRecord.parse({ kind: 'live', channel: 'alice', state: 'live', startedAt: '2026-03-01T11:00:00+01:00' }).startedAt).toBe(T);
  });

  it('refuses an upcoming record without scheduledFor, with a message on scheduledFor', () => {
    expect(issuesOf({ state: 'upcoming', startedAt: T })).toEqual([{ path: 'scheduledFor', message: 'is required when state is upcoming' }]);
  });

  it('accepts an upcoming record with scheduledFor and no startedAt', () => {
    expect(issuesOf({ state: 'upcoming', scheduledFor: T })).toEqual([]);
  });

  it('accepts an offline record with neither startedAt nor scheduledFor', () => {
    expect(issuesOf({ state: 'offline' })).toEqual([]);
    expect(LiveRecord.parse({ kind: 'live', channel: 'alice', state: 'offline' })).toEqual({ kind: 'live', channel: 'alice', state: 'offline' });
  });

  it('refuses an unknown state and a bad date', () => {
    expect(issuesOf({ state: 'soon' }).map((i) => i.path)).toEqual(['state']);
    expect(issuesOf({ state: 'live', startedAt: 'yesterday' }).map((i) => i.path)).toContain('startedAt');
  });

  it('refuses negative or fractional viewers', () => {
    expect(issuesOf({ state: 'live', startedAt: T, viewers: -1 }).map((i) => i.path)).toEqual(['viewers']);
    expect(issuesOf({ state: 'live', startedAt: T, viewers: 1.5 }).map((i) => i.path)).toEqual(['viewers']);
  });

  it('applies the same rules when read as any catalogue record', () => {
    const result = CatalogueRecord.safeParse({ kind: 'live', channel: 'alice', state: 'live' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['startedAt']);
  });
});
