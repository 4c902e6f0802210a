import { describe, expect, it } from 'vitest';
import { formatInstant, normaliseInstant } from '../../../src/lib/time.ts';

describe('normaliseInstant', () => {
  it.each([
    ['2026-03-01T12:00:00Z', '2026-03-01T12:00:00Z'],
    ['2020-02-03T10:00:00+02:00', '2020-02-03T08:00:00Z'],
    ['2020-02-03T10:00:00-05:30', '2020-02-03T15:30:00Z'],
    ['2020-03-01T01:00:00+02:00', '2020-02-29T23:00:00Z'],
    ['2020-12-31T23:30:00-01:00', '2021-01-01T00:30:00Z'],
    ['2026-03-01T12:00:00.999Z', '2026-03-01T12:00:00Z'],
    ['2026-03-01t12:00:00z', '2026-03-01T12:00:00Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00Z'],
  ])('normalises %s to UTC with Z: %s', (input, expected) => {
    expect(normaliseInstant(input)).toBe(expected);
  });

  it.each([
    '2020-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '2020-04-31T00:00:00Z', '2020-13-01T00:00:00Z', '2020-00-10T00:00:00Z',
    '2020-01-01T24:00:00Z', '2020-01-01T12:60:00Z', '2020-01-01T12:00:61Z', '2020-01-01T12:00:00', '2020-01-01',
    '2020-01-01 12:00:00Z', 'yesterday', '', '2020-01-01T12:00:00+2:00',
  ])('refuses %j', (input) => {
    expect(normaliseInstant(input)).toBeUndefined();
  });
});

describe('formatInstant', () => {
  it('writes whole seconds with Z', () => {
    expect(formatInstant(Date.UTC(2026, 2, 1, 12, 0, 0, 750))).toBe('2026-03-01T12:00:00Z');
  });
});
