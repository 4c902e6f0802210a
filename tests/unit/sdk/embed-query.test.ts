import { describe, expect, it } from 'vitest';
import { embedQuery } from '../../../src/sdk/embed.ts';

describe('embedQuery', () => {
  it('writes the player options as the embed URL\'s query, switches as 1/0', () => {
    expect(embedQuery({ autoplay: true, muted: false, loop: true, controls: false, playsinline: false, keyboard: false }, undefined))
      .toBe('?autoplay=1&muted=0&loop=1&controls=0&playsinline=0&keyboard=0');
    expect(embedQuery({ start: 12.7, end: 30.2, rate: 1.5, quality: '720p', captions: 'pt-BR' }, 'https://blog.example'))
      .toBe('?start=12&end=31&rate=1.5&quality=720p&captions=pt-BR&origin=https%3A%2F%2Fblog.example');
  });

  it('passes a start or end the player refuses as it is, so that the player names the problem (not a silent 0)', () => {
    expect(embedQuery({ start: -5 }, undefined)).toBe('?start=-5');
    expect(embedQuery({ start: -0.5, end: -2.5 }, undefined)).toBe('?start=-1&end=-2');
    expect(embedQuery({ start: Number.NaN, end: Number.POSITIVE_INFINITY }, undefined)).toBe('?start=NaN&end=Infinity');
  });

  it('is empty without options, and leaves out an origin that is not http(s) (a file:// page)', () => {
    expect(embedQuery({}, undefined)).toBe('');
    expect(embedQuery({}, 'null')).toBe('');
    expect(embedQuery({ muted: true }, 'file://')).toBe('?muted=1');
  });
});
