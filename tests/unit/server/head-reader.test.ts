import { describe, expect, it } from 'vitest';
import { createHeadReader, UNREADABLE } from '../../../src/server/head-reader.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('createHeadReader', () => {
  it('reads pipelined heads in order and holds the start of the next one', () => {
    const reader = createHeadReader();
    reader.push(bytes('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\n\r\nGET /c'));
    expect(reader.next()).toBe('GET /a HTTP/1.1\r\nHost: x');
    expect(reader.next()).toBe('GET /b HTTP/1.1');
    expect(reader.next()).toBeUndefined();
    expect(reader.settle()).toBe(true);
    reader.push(bytes(' HTTP/1.1\r\n\r\n'));
    expect(reader.next()).toBe('GET /c HTTP/1.1');
    expect(reader.settle()).toBe(false);
    expect(reader.rest()).toBeUndefined();
  });

  it('reads a head sent one byte at a time, whatever the packet boundaries', () => {
    const text = 'GET /v1/videos?limit=20 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n';
    const reader = createHeadReader();
    const heads: unknown[] = [];
    for (const c of text) {
      reader.push(bytes(c));
      const head = reader.next();
      if (head !== undefined) heads.push(head);
    }
    expect(heads).toEqual([text.slice(0, -4)]);
  });

  it('gives back the head it returned last, so that node:http reads it from its first byte', () => {
    const reader = createHeadReader();
    reader.push(bytes('GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}'));
    expect(reader.next()).toBe('GET /a HTTP/1.1');
    expect(reader.next()).toBe('POST /b HTTP/1.1\r\nContent-Length: 2');
    reader.giveBack();
    expect(reader.rest()?.toString('latin1')).toBe('POST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}');
  });

  it('calls a head with a bare LF, a blank line before it, or more bytes than its limit unreadable', () => {
    for (const text of ['GET / HTTP/1.1\nHost: x\n\n', 'GET / HTTP/1.1\r\nHost: x\n\r\n', '\r\nGET / HTTP/1.1\r\n\r\n', '\nGET / HTTP/1.1\r\n\r\n']) {
      const reader = createHeadReader();
      reader.push(bytes(text));
      expect(reader.next(), JSON.stringify(text)).toBe(UNREADABLE);
      expect(reader.rest()?.toString('latin1')).toBe(text);
    }
    const reader = createHeadReader(100);
    reader.push(bytes(`GET / HTTP/1.1\r\nX: ${'a'.repeat(100)}`));
    expect(reader.next()).toBe(UNREADABLE);
  });

  it('scans each byte once: a 8 KB head sent a byte at a time is read in linear time', () => {
    // 8,000 pushes of one byte: a copy and rescan of the head on each would be 32 million byte
    // steps; this counts the bytes copied into the reader's buffer instead of timing it.
    const reader = createHeadReader();
    const text = `GET / HTTP/1.1\r\nX: ${'a'.repeat(8000)}\r\n\r\n`;
    let copied = 0;
    const copy = Buffer.prototype.copy;
    Buffer.prototype.copy = function (this: Buffer, ...args: Parameters<Buffer['copy']>) {
      const n = copy.apply(this, args);
      copied += n;
      return n;
    };
    try {
      for (let i = 0; i < text.length; i++) {
        reader.push(bytes(text[i]!));
        reader.next();
      }
    } finally {
      Buffer.prototype.copy = copy;
    }
    expect(copied).toBeLessThan(4 * text.length);
  });
});
