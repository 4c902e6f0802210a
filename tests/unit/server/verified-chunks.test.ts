// src/server/verified-chunks.ts: a snapshot file read a chunk at a time gives exactly its bytes and
// ends only when the whole file has the size and SHA-256 the manifest records; a file truncated,
// grown or changed is refused, at the latest when its end is reached.
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVerifiedChunks } from '../../../src/server/verified-chunks.ts';
import type { ManifestHead } from '../../../src/snapshot/manifest.ts';
import { SnapshotRefused } from '../../../src/snapshot/verify-snapshot.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

const NAME = 'model.ndjson';
const content = Buffer.from(Array.from({ length: 500 }, (_, i) => `["line",${i},"ü運"]\n`).join(''));
const headFor = (bytes: Buffer) => ({ files: { [NAME]: { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') } } }) as unknown as ManifestHead;

function setup(): string {
  const dir = dirs.make();
  writeFileSync(join(dir, NAME), content);
  return dir;
}

/** Every chunk until the end (or the refusal). */
function readAll(dir: string, chunkBytes: number): Buffer[] {
  const chunks = readVerifiedChunks(dir, NAME, headFor(content), chunkBytes);
  const out: Buffer[] = [];
  for (let c = chunks.next(); c; c = chunks.next()) out.push(Buffer.from(c));
  return out;
}

describe('readVerifiedChunks', () => {
  it.each([1000, 4096, content.length, content.length + 10])('gives the file in chunks of %i bytes, each a buffer of its own, then ends', (size) => {
    const dir = setup();
    const chunks = readVerifiedChunks(dir, NAME, headFor(content), size);
    const out: Uint8Array[] = [];
    for (let c = chunks.next(); c; c = chunks.next()) out.push(c);
    expect(Buffer.concat(out).equals(content)).toBe(true);
    for (const c of out) expect(c.byteLength).toBe(c.buffer.byteLength);
    expect(out.length).toBe(Math.ceil(content.length / size));
    expect(chunks.next()).toBeUndefined();
  });

  it.each([
    ['a byte changed', (f: string) => { const b = readFileSync(f); b[b.length >> 1]! ^= 1; writeFileSync(f, b); }, /^model\.ndjson does not match the SHA-256 the manifest records/],
    ['truncated', (f: string) => truncateSync(f, 100), /^model\.ndjson holds 100 bytes, not the \d+ the manifest records/],
    ['grown', (f: string) => appendFileSync(f, 'more'), /^model\.ndjson holds more than the \d+ bytes the manifest records/],
    ['missing', (f: string) => rmSync(f), /^model\.ndjson is missing$/],
  ])('refuses a file %s, naming no server path', (_what, damage, reason) => {
    const dir = setup();
    damage(join(dir, NAME));
    let refusal: unknown;
    try {
      readAll(dir, 1000);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SnapshotRefused);
    expect((refusal as Error).message).toMatch(reason);
    expect((refusal as Error).message).not.toContain(dir);
  });

  it('refuses a file changed after its first chunks were read, at its end', () => {
    const dir = setup();
    const chunks = readVerifiedChunks(dir, NAME, headFor(content), 1000);
    expect(chunks.next()).toBeDefined();
    const changed = Buffer.from(content);
    changed[content.length - 5]! ^= 1;
    writeFileSync(join(dir, NAME), changed);
    expect(() => { while (chunks.next()); }).toThrow(/does not match the SHA-256/);
  });
});
