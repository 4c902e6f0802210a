// The input keys a snapshot records (src/snapshot/page-inputs.ts, page-inputs.ndjson): written a
// line per group as the JSON of `[group, key]`, groups in code-unit order, and read back exactly,
// whatever a group holds; a file that is not the one its manifest records is not read.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_INPUTS_FILE, readPageInputs, servedVideoKeys, writePageInputs } from '../../../src/snapshot/page-inputs.ts';
import { tempDirs } from '../support/fixtures.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

// groups a reader splitting at quotes would get wrong: quotes, backslashes, the `","` separator
// itself, escapes of control characters, text beyond ASCII and a lone surrogate
const inputs = new Map<string, string>([
  ['video:v1', 'k1+/='],
  ['/v1/videos?q=a","b', 'k2'],
  ['/v1/search?q="quoted"', 'k3'],
  ['/v1/videos?q=back\\slash', 'k4'],
  ['video:tab\there', 'k5'],
  ['video:ünï \u{1f600}', 'k6'],
  ['video:half \ud83d', 'k7'],
  ['site:/sitemap.xml', ''],
  ['video:","', '","'],
]);
const recordOf = (bytes: Buffer) => ({ size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });

describe('writePageInputs and readPageInputs', () => {
  it('writes each group as the JSON of [group, key], in code-unit order, and reads every one back exactly', async () => {
    const dir = dirs.make();
    const record = await writePageInputs(dir, inputs);
    const bytes = readFileSync(join(dir, PAGE_INPUTS_FILE));
    const groups = [...inputs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(bytes.toString('utf8')).toBe(groups.map((g) => `${JSON.stringify([g, inputs.get(g)])}\n`).join(''));
    expect(record).toEqual(recordOf(bytes));
    expect(readPageInputs(dir, record)).toEqual(inputs);
  });

  it('reads nothing from a file that is not the one recorded, or whose lines are not pairs of strings', async () => {
    const dir = dirs.make();
    const record = await writePageInputs(dir, inputs);
    expect(readPageInputs(dir, { ...record, size: record.size + 1 })).toBeUndefined();
    expect(readPageInputs(dir, undefined)).toBeUndefined();
    for (const line of ['["a","b","c"]', '["a",1]', '["a"]', '{"a":"b"}', '["a","b"', '["a""b"]', '["a\\","b"]']) {
      const bytes = Buffer.from(`["video:v1","k1"]\n${line}\n`);
      writeFileSync(join(dir, PAGE_INPUTS_FILE), bytes);
      expect(readPageInputs(dir, recordOf(bytes)), line).toBeUndefined();
    }
  });
});

describe('servedVideoKeys', () => {
  it('answers the served key of every video asked in the plan\'s order, as the map does: videos removed, made private, added between two served ones, ids beyond ASCII, and one asked out of order', async () => {
    // the served keys as a build reads them back: sorted by the writer, other groups around the videos
    const ids = ['a', 'a-b', 'a/b', 'b', 'c', 'c0', 'd', 'é', '\u{1f600}'];
    const served = new Map<string, string>([['/v1/videos?limit=20', 'list'], ['site:/feed.xml', 'feed'], ...ids.map((id): [string, string] => [`video:${id}`, `key of ${id}`])]);
    const dir = dirs.make();
    const record = await writePageInputs(dir, served);
    const read = readPageInputs(dir, record)!;
    // this build: 'b' removed, 'c0' made private (not asked), 'bb' and 'c00' added between served ones
    const asked = ['a', 'a-b', 'a/b', 'bb', 'c', 'c00', 'd', 'é', '\u{1f600}', 'zz'].sort();
    const keyOf = servedVideoKeys(read);
    for (const id of asked) expect(keyOf(id), id).toBe(read.get(`video:${id}`));
    expect(keyOf('a'), 'asked again, out of order').toBe('key of a');
    expect(keyOf('b'), 'a removed video asked after all').toBe('key of b');
    // the same answers from a map in another order (walked in place only where the orders agree)
    const shuffled = new Map([...served].reverse());
    const again = servedVideoKeys(shuffled);
    for (const id of [...asked, 'b', 'c0']) expect(again(id), id).toBe(shuffled.get(`video:${id}`));
  });
});
