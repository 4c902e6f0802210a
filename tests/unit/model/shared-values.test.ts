// src/model/shared-values.ts: repeated values held once while a model is built.
import { describe, expect, it } from 'vitest';
import { createSharer } from '../../../src/model/shared-values.ts';

describe('createSharer', () => {
  it('gives the first equal short string for every later one', () => {
    const share = createSharer();
    const first = ['pub', 'lic'].join('');
    const later = ['pu', 'blic'].join('');
    expect(share.text(first)).toBe(first);
    expect(share.text(later)).toBe('public');
    expect(share.text(undefined)).toBeUndefined();
  });

  it('gives the first equal list (as JSON) for every later one, with the same contents', () => {
    const share = createSharer();
    const a = share.list([{ url: '/m/a.webm', type: 'video/webm', height: 480 }]);
    const b = share.list([{ url: '/m/a.webm', type: 'video/webm', height: 480 }]);
    const c = share.list([{ url: '/m/a.webm', type: 'video/webm', height: 240 }]);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(c).toEqual([{ url: '/m/a.webm', type: 'video/webm', height: 240 }]);
    expect(Object.isFrozen(a)).toBe(true);
    expect(share.list([])).toEqual([]);
  });

  it('keeps lists that differ only in order apart', () => {
    const share = createSharer();
    expect(share.list(['a', 'b'])).not.toBe(share.list(['b', 'a']));
    expect(share.list(['b', 'a'])).toEqual(['b', 'a']);
  });
});
