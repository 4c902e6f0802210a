// The input keys a snapshot records (src/snapshot/page-inputs.ts, page-inputs.ndjson): written a
// line per group as the JSON of `[group, key]`, groups in code-unit order, and read back exactly,
// whatever a group holds; a file that is not the one its manifest records is not read.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_INPUTS_FILE, readPageInputs, writePageInputs } from '../../../src/snapshot/page-inputs.ts';
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
