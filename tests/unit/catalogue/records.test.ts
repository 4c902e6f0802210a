// The record schemas of the interchange format; here the rules a live record keeps by its state.
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../src/api/routes.ts';
import { CatalogueRecord, Key, LiveRecord, RESERVED_VIDEO_IDS } from '../../../src/catalogue/records.ts';

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

describe('Key: ids, usernames and slugs (docs/catalogue.md "Ids")', () => {
  const video = (id: string) => ({ kind: 'video', id, channel: 'c', title: 't', publishedAt: T, privacy: 'public' });

  it('accepts the ids real platforms issue, whatever their first character', () => {
    const ids = [
      '-OK9i1_YYYc', 'dQw4w9WgXcQ', '_abcDEF1234', // YouTube: 11 of A-Za-z0-9_-, about 1 in 64 starting with -
      '76979871', // Vimeo
      'x8abc12', // Dailymotion
      '9c9de5e8-0a1e-484a-b099-e80766180a6d', 'kkGMgK9ZtnKfYAgnEtQxbv', // PeerTube UUID and short UUID
      'my-talk-slug.2024', '.dotted', '..x', 'x'.repeat(128),
    ];
    for (const id of ids) {
      expect(Key.safeParse(id).success, id).toBe(true);
      expect(CatalogueRecord.safeParse(video(id)).success, id).toBe(true);
    }
  });

  it('refuses ids that are not one URL path segment: only dots, other characters, empty or too long', () => {
    for (const id of ['.', '..', '...', '', 'a/b', 'a b', 'a~b', 'a%2Fb', 'é', 'a?b', 'x'.repeat(129)]) {
      const result = Key.safeParse(id);
      expect(result.success, id).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must be 1-128 characters of A-Z a-z 0-9 . _ - and not only dots');
    }
  });

  it('refuses a video id that is a word of the API\'s paths where a video id goes, naming it', () => {
    const result = CatalogueRecord.safeParse(video('batch'));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual(['id: must not be "batch", a word of the API\'s paths (/v1/videos/batch)']);
    // elsewhere the word is an ordinary id
    expect(CatalogueRecord.safeParse({ kind: 'playlist', id: 'batch', channel: 'c', title: 't', privacy: 'public', videos: [] }).success).toBe(true);
  });

  it('reserves every fixed path word that sits where a video id goes in the route table', () => {
    const paths = ENDPOINTS.map((e) => e.path.split('/'));
    const words = new Set<string>();
    for (const withId of paths) {
      const at = withId.indexOf(':id');
      if (withId[at - 1] !== 'videos') continue;
      for (const other of paths) {
        if (other.length === withId.length && other.slice(0, at).join('/') === withId.slice(0, at).join('/') && !other[at]!.startsWith(':')) words.add(other[at]!);
      }
    }
    expect([...words].sort()).toEqual([...RESERVED_VIDEO_IDS].sort());
    for (const word of words) expect(CatalogueRecord.safeParse(video(word)).success, word).toBe(false);
  });
});
