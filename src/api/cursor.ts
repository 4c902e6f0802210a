// Opaque, tamper-evident paging cursors (docs/api-contract.md §4). A cursor carries the offset of the page it
// starts, a hash of the query it belongs to, and an HMAC over both. The HMAC is a check against
// alteration, not a secret: a cursor only reaches positions that `offset` reaches anyway. The same
// page always gets the same cursor, so prerendered and dynamic answers agree.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const KEY = 'video-platform-api/cursor/v1';
const SCOPE_BYTES = 6;
const MAC_BYTES = 8;
const LENGTH = 1 + 4 + SCOPE_BYTES + MAC_BYTES;
const TEXT = /^[A-Za-z0-9_-]+$/;
/** Every cursor this service issues: LENGTH bytes in base64url, unpadded (the API description's `pattern`). */
export const CURSOR_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((LENGTH * 8) / 6)}}$`);

const scopeHash = (scope: string) => createHash('sha256').update(scope).digest().subarray(0, SCOPE_BYTES);
const mac = (payload: Buffer) => createHmac('sha256', KEY).update(payload).digest().subarray(0, MAC_BYTES);

/** `scope` names the query (path and canonical filters) the cursor may be used with. */
export function encodeCursor(scope: string, offset: number): string {
  const payload = Buffer.alloc(1 + 4 + SCOPE_BYTES);
  payload.writeUInt8(VERSION, 0);
  payload.writeUInt32BE(offset, 1);
  scopeHash(scope).copy(payload, 5);
  return Buffer.concat([payload, mac(payload)]).toString('base64url');
}

export type CursorResult = { ok: true; offset: number } | { ok: false; detail: string };

export function decodeCursor(scope: string, text: string): CursorResult {
  const invalid = { ok: false, detail: 'is not a cursor this service issued; pass paging.nextCursor from a previous page unchanged' } as const;
  if (!TEXT.test(text) || text.length > 64) return invalid;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== LENGTH || bytes.toString('base64url') !== text) return invalid;
  const payload = bytes.subarray(0, LENGTH - MAC_BYTES);
  if (!timingSafeEqual(mac(payload), bytes.subarray(LENGTH - MAC_BYTES)) || payload[0] !== VERSION) return invalid;
  if (!scopeHash(scope).equals(payload.subarray(5))) {
    return { ok: false, detail: 'belongs to another query: keep the same path, filters and sort while following cursors' };
  }
  return { ok: true, offset: payload.readUInt32BE(1) };
}
