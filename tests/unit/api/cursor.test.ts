import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../src/api/cursor.ts';
import { prng } from '../support/fixtures.ts';

const SCOPE = '/v1/videos?limit=20&sort=latest';
const OTHER_SCOPE = '/v1/videos?limit=20&sort=views';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function expectRejected(text: string, scope: string = SCOPE): string {
  const result = decodeCursor(scope, text);
  expect(result.ok, `cursor ${JSON.stringify(text)} was accepted`).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.detail.length).toBeGreaterThan(0);
  return result.detail;
}

describe('encodeCursor and decodeCursor', () => {
  it('round-trips the offset for the scope it was issued for', () => {
    for (const offset of [0, 1, 20, 40, 12_345, 2_147_483_647]) {
      expect(decodeCursor(SCOPE, encodeCursor(SCOPE, offset))).toEqual({ ok: true, offset });
    }
  });

  it('gives the same page the same cursor every time', () => {
    expect(encodeCursor(SCOPE, 40)).toBe(encodeCursor(SCOPE, 40));
  });

  it('gives different pages and different queries different cursors', () => {
    expect(encodeCursor(SCOPE, 40)).not.toBe(encodeCursor(SCOPE, 60));
    expect(encodeCursor(SCOPE, 40)).not.toBe(encodeCursor(OTHER_SCOPE, 40));
  });

  it('issues URL-safe text that needs no percent-encoding', () => {
    const cursor = encodeCursor(SCOPE, 20);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(cursor)).toBe(cursor);
  });

  it('rejects a cursor with one character changed, at every position and to every other character', () => {
    const cursor = encodeCursor(SCOPE, 40);
    let tried = 0;
    for (let i = 0; i < cursor.length; i++) {
      for (const c of BASE64URL) {
        if (c === cursor[i]) continue;
        const altered = cursor.slice(0, i) + c + cursor.slice(i + 1);
        expectRejected(altered);
        tried++;
      }
    }
    expect(tried).toBe(cursor.length * (BASE64URL.length - 1));
  });

  it('rejects a cursor whose offset was rewritten and re-encoded without the check', () => {
    const bytes = Buffer.from(encodeCursor(SCOPE, 40), 'base64url');
    bytes.writeUInt32BE(0, 1);
    expectRejected(bytes.toString('base64url'));
  });

  it.each([
    ['0', '0'],
    ['-1', '-1'],
    ['the empty string', ''],
    ['a number of offset 20', '20'],
    ['base64 of a JSON offset', Buffer.from('{"offset":20}').toString('base64url')],
  ])('rejects %s', (_name, text) => {
    expectRejected(text);
  });

  it('rejects a real cursor with base64 padding added', () => {
    const cursor = encodeCursor(SCOPE, 40);
    expectRejected(`${cursor}=`);
    expectRejected(`${cursor}==`);
  });

  it('rejects a real cursor in standard base64 instead of base64url', () => {
    // Find a page whose cursor holds a character that differs between the two alphabets.
    for (let offset = 20; offset < 20_000; offset += 20) {
      const cursor = encodeCursor(SCOPE, offset);
      if (/[-_]/.test(cursor)) {
        expectRejected(Buffer.from(cursor, 'base64url').toString('base64'));
        return;
      }
    }
    throw new Error('no cursor with - or _ found');
  });

  it('rejects a truncated cursor, one character at a time', () => {
    const cursor = encodeCursor(SCOPE, 40);
    for (let n = 0; n < cursor.length; n++) expectRejected(cursor.slice(0, n));
  });

  it('rejects a cursor with characters appended', () => {
    const cursor = encodeCursor(SCOPE, 40);
    for (const c of ['A', 'a', '0', '-', '_', 'AAAA', cursor]) expectRejected(cursor + c);
  });

  it('rejects a cursor with whitespace around it', () => {
    const cursor = encodeCursor(SCOPE, 40);
    expectRejected(` ${cursor}`);
    expectRejected(`${cursor}\n`);
  });

  it('rejects a cursor issued for another query, saying so', () => {
    const detail = expectRejected(encodeCursor(OTHER_SCOPE, 40), SCOPE);
    expect(detail).toMatch(/another query/);
    expect(detail).not.toBe(expectRejected('0'));
  });

  it('never throws, whatever text it is given', () => {
    const random = prng(2026);
    const alphabet = `${BASE64URL}=+/ .%\u00e9\u2028\u0000\ud83d\ude00`;
    const cursor = encodeCursor(SCOPE, 20);
    const inputs = ['a'.repeat(10_000), '\ud800', cursor.repeat(3), 'A'.repeat(cursor.length), '_'.repeat(cursor.length)];
    for (let n = 0; n < 2000; n++) {
      const length = Math.floor(random() * 40);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      inputs.push(text);
    }
    for (const text of inputs) {
      let result: ReturnType<typeof decodeCursor> | undefined;
      expect(() => { result = decodeCursor(SCOPE, text); }).not.toThrow();
      expect(result?.ok).toBe(false);
    }
  });
});
