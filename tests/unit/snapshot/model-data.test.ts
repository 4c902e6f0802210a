// The snapshot's model data (model-data.ts): written a line per record as each line's JSON array,
// read back the same however the text of a record looks, and a damaged line refused.
import { describe, expect, it } from 'vitest';
import { deriveCatalogue } from '../../../src/model/build-model.ts';
import { runSteps } from '../../../src/model/steps.ts';
import { collectModelLines, modelLines, parseModelData, parseModelLines } from '../../../src/snapshot/model-data.ts';
import { BASE_URL, catalogueOf, category, channel, comment, liveStream, playlist, video } from '../support/fixtures.ts';

// descriptions that end like a video line's tail, to mislead a reader that looks for it
const catalogue = catalogueOf({
  categories: [category('talks', 'Talks')],
  channels: [channel('alice'), channel('bob', { description: '],[1,2]]' })],
  videos: [
    video('v1', { tags: ['python', 'web'], description: 'ends like a line: ,0.5,[1,2]]', category: 'talks', views: 12, likes: 3, chapters: [{ start: 0, title: 'Intro' }] }),
    video('v2', { tags: ['python'], description: '[[[', publishedAt: '2026-02-01T00:00:00Z', views: 1000 }),
    video('v3', { tags: ['web'], title: 'Ünïcödé \u{1f600} "quoted" \\ back', channel: 'bob', category: 'talks' }),
    video('v4', { privacy: 'unlisted', tags: ['python'] }),
    video('v5', { tags: ['nothing-shared'], channel: 'carol' }),
  ],
  playlists: [playlist('p1', ['v1', 'v2'])],
  comments: [comment('c1', 'v1', { text: ',1]]' }), comment('r1', 'v1', { parentId: 'c1' })],
  live: [liveStream('alice', 'live', { viewers: 3 })],
});

const lines = (derived = deriveCatalogue(catalogue)) => [...modelLines(catalogue, derived, BASE_URL)];

describe('modelLines', () => {
  it('writes each record as the JSON of its line array, byte for byte', () => {
    const derived = deriveCatalogue(catalogue);
    const expected = [
      ['header', { baseUrl: BASE_URL }],
      ...catalogue.categories.map((c) => ['category', c]),
      ...catalogue.channels.map((c) => ['channel', c]),
      ...catalogue.videos.map((v, i) => ['video', v, derived.trending[i], Array.from(derived.related[i]!)]),
      ...catalogue.playlists.map((p) => ['playlist', p]),
      ...catalogue.comments.map((c) => ['comment', c]),
      ...catalogue.live.map((l) => ['live', l]),
    ].map((line) => `${JSON.stringify(line)}\n`);
    expect(derived.related.some((r) => r.length === 0)).toBe(true);
    expect(derived.related.some((r) => r.length > 1)).toBe(true);
    expect(lines(derived)).toEqual(expected);
  });
});

describe('parseModelLines', () => {
  it('reads back every record, score and related list, whatever the text holds', () => {
    const derived = deriveCatalogue(catalogue);
    const data = parseModelData(lines(derived).join(''));
    expect(data.baseUrl).toBe(BASE_URL);
    expect(JSON.stringify(data.catalogue)).toBe(JSON.stringify(catalogue));
    expect(data.derived.trending).toEqual(derived.trending);
    expect(data.derived.related.map((r) => Array.from(r))).toEqual(derived.related.map((r) => Array.from(r)));
  });

  it('refuses a video line whose related list is damaged', () => {
    const line = lines().find((l) => l.startsWith('["video"') && !l.endsWith(',[]]\n'))!.slice(0, -1);
    const head = line.slice(0, line.lastIndexOf('['));
    for (const damaged of [`${head}[1,,2]]`, `${head}[1,x]]`, `${head}[1,]]`, `${head}[,1]]`]) {
      expect(() => parseModelLines([damaged])).toThrow(SyntaxError);
    }
  });
});

describe('collectModelLines', () => {
  it('reads related lists the same whatever the size of their blocks, a list never split across two, and in steps as at once', () => {
    const derived = deriveCatalogue(catalogue);
    const expected = derived.related.map((r) => Array.from(r));
    const longest = Math.max(...expected.map((r) => r.length));
    expect(longest).toBeGreaterThan(1);
    for (const blockInts of [1, longest, longest + 1, 1 << 20]) {
      const collector = collectModelLines(blockInts);
      for (const line of lines(derived)) collector.add(line);
      let steps = 0;
      const stepping = collector.finishInSteps();
      let next = stepping.next();
      for (; !next.done; next = stepping.next()) steps++;
      const data = next.value;
      expect(data.derived.related.map((r) => Array.from(r))).toEqual(expected);
      expect(steps).toBeLessThanOrEqual(1);
      expect(runSteps(collector.finishInSteps()).derived.related.map((r) => Array.from(r))).toEqual(expected);
    }
  });
});

