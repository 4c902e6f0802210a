// Operator alerts (src/catalogue/read-alerts.ts): read back as imported, newest first, and in force
// from their start (inclusive) to their end (exclusive).
import { afterEach, describe, expect, it } from 'vitest';
import { openCatalogue, type Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { activeAlerts, readAlerts, type StoredAlert } from '../../../src/catalogue/read-alerts.ts';
import { writeRecords, type Raw } from '../support/fixtures.ts';

const opened: Catalogue[] = [];
afterEach(() => { for (const db of opened.splice(0)) db.close(); });

function catalogueWith(raws: readonly Raw[]): Catalogue {
  const db = openCatalogue(':memory:');
  opened.push(db);
  writeRecords(db, raws);
  return db;
}

const rawAlert = (id: string, over: Raw = {}): Raw =>
  ({ kind: 'alert', id, severity: 'minor', title: `Alert ${id}`, message: `About ${id}`, startsAt: '2026-03-01T10:00:00Z', ...over });

const alert = (id: string, startsAt: string, endsAt?: string): StoredAlert =>
  ({ id, severity: 'info', title: id, message: id, startsAt, ...(endsAt !== undefined && { endsAt }), components: [] });

describe('readAlerts', () => {
  it('reads every alert newest first, ties by id, with its fields as imported', () => {
    const db = catalogueWith([
      rawAlert('old', { startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-01T02:00:00Z', severity: 'major', components: ['media', 'search'] }),
      rawAlert('b-new', { startsAt: '2026-03-01T10:00:00Z' }),
      rawAlert('a-new', { startsAt: '2026-03-01T12:00:00+02:00', severity: 'critical' }),
    ]);
    expect(readAlerts(db)).toEqual([
      { id: 'a-new', severity: 'critical', title: 'Alert a-new', message: 'About a-new', startsAt: '2026-03-01T10:00:00Z', components: [] },
      { id: 'b-new', severity: 'minor', title: 'Alert b-new', message: 'About b-new', startsAt: '2026-03-01T10:00:00Z', components: [] },
      { id: 'old', severity: 'major', title: 'Alert old', message: 'About old', startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-01T02:00:00Z', components: ['media', 'search'] },
    ]);
  });

  it('leaves endsAt out of an alert with no end', () => {
    const [only] = readAlerts(catalogueWith([rawAlert('open')]));
    expect(only).toBeDefined();
    expect('endsAt' in only!).toBe(false);
  });

  it('reads nothing from a catalogue without alerts', () => {
    expect(readAlerts(catalogueWith([]))).toEqual([]);
  });
});

describe('activeAlerts', () => {
  const alerts = [
    alert('open', '2026-03-01T10:00:00Z'),
    alert('window', '2026-03-01T10:00:00Z', '2026-03-01T12:00:00Z'),
    alert('future', '2026-03-02T00:00:00Z'),
    alert('past', '2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z'),
  ];
  const ids = (now: string) => activeAlerts(alerts, now).map((a) => a.id);

  it('includes an alert from the second it starts', () => {
    expect(ids('2026-03-01T09:59:59Z')).toEqual([]);
    expect(ids('2026-03-01T10:00:00Z')).toEqual(['open', 'window']);
  });

  it('drops an alert at the second it ends', () => {
    expect(ids('2026-03-01T11:59:59Z')).toEqual(['open', 'window']);
    expect(ids('2026-03-01T12:00:00Z')).toEqual(['open']);
  });

  it('keeps an alert with no end in force, and leaves out ended and future ones', () => {
    expect(ids('2027-01-01T00:00:00Z')).toEqual(['open', 'future']);
    expect(ids('2026-02-01T12:00:00Z')).toEqual(['past']);
  });
});
