// The nginx configuration's canonical-query maps come from the endpoints' own query schemas: the
// limit map accepts exactly the limits the origin writes in canonical URLs (1 to MAX_LIMIT, no
// leading zero), absent parameters get the schema's default, enums and the cursor's pattern are the
// schema's, and only routes the build prerenders (no required parameter) are served from files.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMIT, DurationFilter, FeatureFilter, MAX_LIMIT, VideoSort } from '../../../src/api/params.ts';
import { CURSOR_PATTERN } from '../../../src/api/cursor.ts';
import { nginxConfig } from '../../../src/cdn/nginx-config.ts';

const config = nginxConfig({ listen: 8080, origins: ['http://127.0.0.1:4321'], snapshotDir: '/snapshot', prefix: '/prefix', publicBaseUrl: 'http://localhost:4321' });

/** The entries of `map $arg_<name>`: pattern or value → part. */
function mapOf(name: string): [string, string][] {
  const block = new RegExp(`map \\$arg_${name} \\$vp_${name} \\{\\n([\\s\\S]*?)\\n  \\}`).exec(config)?.[1];
  if (!block) throw new Error(`no map for ${name}`);
  return [...block.matchAll(/^ {4}"((?:[^"\\]|\\.)*)" "?([^";]*)"?;$/gm)].map((m) => [m[1]!, m[2]!]);
}
const validPattern = (name: string) => new RegExp(mapOf(name).find(([key]) => key.startsWith('~'))![0].slice(1));

describe('nginxConfig maps, derived from the query schemas', () => {
  it('accept exactly the limits of canonical URLs, 1 to MAX_LIMIT, and fill in the default', () => {
    const limit = validPattern('limit');
    const accepted = Array.from({ length: MAX_LIMIT + 20 }, (_, i) => String(i)).filter((v) => limit.test(v));
    expect(accepted).toEqual(Array.from({ length: MAX_LIMIT }, (_, i) => String(i + 1)));
    expect(['01', '+1', '1.0', ' 1', `${MAX_LIMIT}0`].filter((v) => limit.test(v))).toEqual([]);
    expect(mapOf('limit')[0]).toEqual(['', `limit=${DEFAULT_LIMIT}&`]);
  });

  it('take enums, defaults and the cursor pattern from the schemas', () => {
    expect(mapOf('sort')[0]).toEqual(['', 'sort=latest&']);
    for (const value of VideoSort.options) expect(validPattern('sort').test(value)).toBe(true);
    for (const value of DurationFilter.options) expect(validPattern('duration').test(value)).toBe(true);
    for (const value of FeatureFilter.options) expect(validPattern('feature').test(value)).toBe(true);
    expect(validPattern('feature').test('4k')).toBe(false);
    expect(validPattern('cursor').source).toBe(CURSOR_PATTERN.source);
    expect(mapOf('offset')).toEqual([['', ''], ['0', '']]);
    expect(config).toMatch(/map \$arg_offset \$vp_offset \{\n    "" "";\n    "0" "";\n    default "!";/);
  });

  it('serves from files only routes the build prerenders: batch, with its required ids, goes to the origin', () => {
    const routes = /map \$uri \$vp_route \{\n([\s\S]*?)\n {2}\}/.exec(config)![1]!;
    expect(routes).toMatch(/"~\^\/v1\/videos\/batch\$" "";/);
    expect(routes).toMatch(/"~\^\/v1\/videos\$" list-videos;/);
    expect(config).not.toContain('$arg_ids');
  });
});
