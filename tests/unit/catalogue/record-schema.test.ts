// The published JSON Schema of import records (record-schema.ts) against the importer itself: the
// same valid records accepted by both, the same invalid ones refused by both.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildRecordJsonSchema } from '../../../src/catalogue/record-schema.ts';
import { generateSeedRecords } from '../../../src/catalogue/seed-catalogue.ts';
import { parseRecordLine } from '../../../src/catalogue/validate-records.ts';
import { rawCategory, rawChannel, rawComment, rawPlaylist, rawVideo, type Raw } from '../support/fixtures.ts';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const schemaAccepts = ajv.compile(buildRecordJsonSchema());
const importerAccepts = (record: unknown) => parseRecordLine(1, JSON.stringify(record)).errors === undefined;

const pyvideo = gunzipSync(readFileSync(fileURLToPath(new URL('../../fixtures/pyvideo-excerpt.ndjson.gz', import.meta.url))))
  .toString('utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Raw);

const valid: Raw[] = [
  rawCategory('music', 'Music'),
  rawChannel('alice', { description: 'Line one\nline two', avatarUrl: 'https://img.example/a.png', subscribers: 3, createdAt: '2020-01-01T00:00:00Z' }),
  rawVideo('v1', {
    category: 'music', tags: ['a', 'b'], duration: 61, views: 0, likes: 2, updatedAt: '2026-01-02T03:04:05+01:00',
    features: { '3d': true }, thumbnailUrl: 'http://img.example/t.jpg', language: 'pt-BR',
    sources: [{ url: '/media/sample-480.webm', type: 'video/webm', height: 480 }, { url: 'https://m.example/v.mp4', type: 'video/mp4', height: 1080 }],
    captions: [{ lang: 'en', label: 'English', url: '/media/en.vtt' }, { lang: 'fr', label: 'Français' }],
  }),
  rawVideo('v2', { privacy: 'private', description: '' }),
  rawPlaylist('p1', ['v1', 'v2'], { privacy: 'unlisted', description: 'd' }),
  rawComment('c1', 'v1', { likes: 4, state: 'held', author: { displayName: 'Ann', username: 'ann', avatarUrl: 'https://img.example/ann.png' } }),
  rawComment('r1', 'v1', { parentId: 'c1', text: 'multi\nline\treply' }),
  { kind: 'live', channel: 'alice', state: 'live', startedAt: '2026-01-01T00:00:00Z', viewers: 5, title: 'On air' },
  { kind: 'live', channel: 'bob', state: 'offline' },
  { kind: 'alert', id: 'a1', severity: 'critical', title: 'Down', message: 'Everything', startsAt: '2026-01-01T00:00:00Z', endsAt: '2026-01-02T00:00:00Z', components: ['search'] },
  ...pyvideo,
  ...[...generateSeedRecords({ videos: 300, seed: 5 })] as unknown as Raw[],
];

const invalid: [string, unknown][] = [
  ['an unknown key', rawVideo('v1', { thumbnail_url: 'https://img.example/t.jpg' })],
  ['an unknown nested key', rawVideo('v1', { features: { hd: true } })],
  ['an unknown key in a source', rawVideo('v1', { sources: [{ url: '/m.webm', type: 'video/webm', height: 1, size: 3 }] })],
  ['an unknown kind', { kind: 'podcast', id: 'x' }],
  ['no kind', { id: 'x', name: 'X' }],
  ['a missing required field', { kind: 'video', id: 'v1', channel: 'alice', publishedAt: '2026-01-01T00:00:00Z', privacy: 'public' }],
  ['an empty title', rawVideo('v1', { title: '' })],
  ['a blank title', rawVideo('v1', { title: ' \t ' })],
  ['a title too long', rawVideo('v1', { title: 'x'.repeat(501) })],
  ['a NUL in a title', rawVideo('v1', { title: 'a\u0000b' })],
  ['a control character in a description', rawVideo('v1', { description: 'bell \u0007' })],
  ['a javascript: media URL', rawVideo('v1', { sources: [{ url: 'javascript:alert(1)', type: 'video/mp4', height: 1 }] })],
  ['a javascript: caption URL', rawVideo('v1', { captions: [{ lang: 'en', label: 'E', url: 'javascript:alert(1)' }] })],
  ['a javascript: thumbnail', rawVideo('v1', { thumbnailUrl: 'javascript:alert(1)' })],
  ['a data: thumbnail', rawVideo('v1', { thumbnailUrl: 'data:image/png;base64,AAAA' })],
  ['a protocol-relative media URL', rawVideo('v1', { sources: [{ url: '//evil.example/a.webm', type: 'video/webm', height: 1 }] })],
  ['a ftp: avatar', rawChannel('alice', { avatarUrl: 'ftp://img.example/a.png' })],
  ['a negative count', rawVideo('v1', { views: -1 })],
  ['a fractional duration', rawVideo('v1', { duration: 1.5 })],
  ['a wrong privacy', rawVideo('v1', { privacy: 'secret' })],
  ['a date that is not RFC 3339', rawVideo('v1', { publishedAt: 'yesterday' })],
  ['an id with a space', rawVideo('bad id')],
  ['too many tags', rawVideo('v1', { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) })],
  ['a wrong comment state', rawComment('c1', 'v1', { state: 'deleted' })],
  ['a wrong severity', { kind: 'alert', id: 'a', severity: 'dire', title: 'T', message: 'M', startsAt: '2026-01-01T00:00:00Z' }],
  ['a string for a number', rawVideo('v1', { likes: '3' })],
  ['a null field', rawVideo('v1', { description: null })],
  ['an array', []],
];

describe('the JSON Schema of import records', () => {
  it('accepts every record the importer accepts', () => {
    expect(valid.length).toBeGreaterThan(500);
    for (const record of valid) {
      expect(importerAccepts(record), JSON.stringify(record)).toBe(true);
      expect(schemaAccepts(record), `${JSON.stringify(record)}: ${ajv.errorsText(schemaAccepts.errors)}`).toBe(true);
    }
  });

  it('refuses what the importer refuses', () => {
    for (const [what, record] of invalid) {
      expect(importerAccepts(record), what).toBe(false);
      expect(schemaAccepts(record), what).toBe(false);
    }
  });

  it('describes every kind and closes every object', () => {
    const schema = buildRecordJsonSchema() as { oneOf: { properties: { kind: { const: string } }; additionalProperties: boolean }[] };
    expect(schema.oneOf.map((s) => s.properties.kind.const)).toEqual(['category', 'channel', 'video', 'playlist', 'comment', 'live', 'alert']);
    const open: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node !== 'object' || node === null) return;
      const o = node as Record<string, unknown>;
      if (o['type'] === 'object' && o['additionalProperties'] !== false) open.push(path);
      for (const [key, value] of Object.entries(o)) walk(value, `${path}/${key}`);
    };
    walk(schema, '');
    expect(open).toEqual([]);
  });
});
