import { describe, expect, it } from 'vitest';
import { countOf, dayOf, isoDuration, jsonForScript } from '../../src/lib/site.ts';

describe('isoDuration', () => {
  it.each([
    [0, 'PT0S'],
    [45, 'PT45S'],
    [60, 'PT1M'],
    [3723, 'PT1H2M3S'],
    [3600, 'PT1H'],
    [3605, 'PT1H5S'],
    [7260, 'PT2H1M'],
    [90_000, 'PT25H'],
  ])('writes %i seconds as %s', (seconds, expected) => {
    expect(isoDuration(seconds)).toBe(expected);
  });
});

describe('countOf', () => {
  it('writes one without a plural', () => {
    expect(countOf(1, 'view')).toBe('1 view');
  });

  it('writes zero and more than one with a plural', () => {
    expect(countOf(0, 'view')).toBe('0 views');
    expect(countOf(2, 'view')).toBe('2 views');
  });

  it('writes counts under 10,000 in full, with separators', () => {
    expect(countOf(9999, 'view')).toBe('9,999 views');
  });

  it('writes counts from 10,000 compactly, to one decimal', () => {
    expect(countOf(10_000, 'view')).toBe('10K views');
    expect(countOf(12_345, 'view')).toBe('12.3K views');
    expect(countOf(1_250_000, 'subscriber')).toBe('1.3M subscribers');
  });
});

describe('dayOf', () => {
  it('keeps the date of an instant', () => {
    expect(dayOf('2026-03-01T12:00:00Z')).toBe('2026-03-01');
  });
});

describe('jsonForScript', () => {
  it('escapes < so a value cannot close the script element', () => {
    const text = jsonForScript({ name: '</script><script>alert(1)</script>', note: '<!-- x' });
    expect(text).not.toContain('</script');
    expect(text).not.toContain('<');
    expect(text).toContain('\\u003c/script>');
  });

  it('stays JSON that parses back to the same value', () => {
    const value = { name: '</script>', list: [1, 'a<b'], nested: { ok: true } };
    expect(JSON.parse(jsonForScript(value))).toEqual(value);
  });
});
