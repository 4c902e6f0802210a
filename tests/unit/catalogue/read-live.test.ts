import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readLiveStreams } from '../../../src/catalogue/read-live.ts';
import { rawChannel, writeRecords } from '../support/fixtures.ts';

let db: Catalogue;
beforeEach(() => {
  db = openCatalogue(':memory:');
  writeRecords(db, ['amy', 'bob', 'cat', 'dan', 'eve', 'fay'].map((u) => rawChannel(u)));
});
afterEach(() => db.close());

type Row = [channel: string, state: string, title: string | null, startedAt: string | null, scheduledFor: string | null, viewers: number | null];
function insert(...rows: Row[]): void {
  const statement = db.prepare('INSERT INTO live_streams (channel, state, title, started_at, scheduled_for, viewers) VALUES (?, ?, ?, ?, ?, ?)');
  for (const row of rows) statement.run(...row);
}
const T1 = '2026-03-01T10:00:00Z';
const T2 = '2026-03-02T18:00:00Z';

describe('readLiveStreams', () => {
  it('reads nothing from a catalogue without live records', () => {
    expect(readLiveStreams(db)).toEqual([]);
  });

  it('keeps startedAt and viewers on a live record, and drops a scheduledFor', () => {
    insert(['amy', 'live', 'Morning show', T1, T2, 42]);
    expect(readLiveStreams(db)).toEqual([{ channel: 'amy', state: 'live', title: 'Morning show', startedAt: T1, viewers: 42 }]);
  });

  it('gives a live record without viewers 0 viewers, and omits a missing startedAt', () => {
    insert(['amy', 'live', 'Show', null, null, null]);
    const [amy] = readLiveStreams(db);
    expect(amy).toEqual({ channel: 'amy', state: 'live', title: 'Show', viewers: 0 });
    expect('startedAt' in amy!).toBe(false);
  });

  it('keeps scheduledFor on an upcoming record, and drops startedAt and viewers', () => {
    insert(['bob', 'upcoming', 'Later', T1, T2, 7]);
    expect(readLiveStreams(db)).toEqual([{ channel: 'bob', state: 'upcoming', title: 'Later', scheduledFor: T2 }]);
  });

  it('keeps none of startedAt, scheduledFor and viewers on an offline record', () => {
    insert(['cat', 'offline', 'Done', T1, T2, 9]);
    const [cat] = readLiveStreams(db);
    expect(cat).toEqual({ channel: 'cat', state: 'offline', title: 'Done' });
    expect(Object.keys(cat!).sort()).toEqual(['channel', 'state', 'title']);
  });

  it('defaults a missing title to the empty string', () => {
    insert(['dan', 'offline', null, null, null, null], ['eve', 'upcoming', null, null, T2, null]);
    expect(readLiveStreams(db).map((s) => s.title)).toEqual(['', '']);
  });

  it('orders records by channel', () => {
    insert(['fay', 'offline', null, null, null, null], ['amy', 'offline', null, null, null, null], ['dan', 'offline', null, null, null, null]);
    expect(readLiveStreams(db).map((s) => s.channel)).toEqual(['amy', 'dan', 'fay']);
  });

  it('reads what the record writer wrote for each state', () => {
    writeRecords(db, [
      { kind: 'live', channel: 'amy', state: 'live', title: 'On air', startedAt: '2026-03-01T11:00:00+01:00', viewers: 5 },
      { kind: 'live', channel: 'bob', state: 'upcoming', scheduledFor: T2 },
      { kind: 'live', channel: 'cat', state: 'offline' },
    ]);
    expect(readLiveStreams(db)).toEqual([
      { channel: 'amy', state: 'live', title: 'On air', startedAt: T1, viewers: 5 },
      { channel: 'bob', state: 'upcoming', title: '', scheduledFor: T2 },
      { channel: 'cat', state: 'offline', title: '' },
    ]);
  });
});
