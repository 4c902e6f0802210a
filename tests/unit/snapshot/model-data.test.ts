// The snapshot's model data (model-data.ts): written a line per record as each line's JSON array,
// read back the same however the text of a record looks, and a damaged line refused.
import { describe, expect, it } from 'vitest';
import { buildModel, deriveCatalogue, VIDEO_SORTS } from '../../../src/model/build-model.ts';
import { runSteps } from '../../../src/model/steps.ts';
import { collectModelLines, loadModelLines, modelLines, parseModelData, parseModelLines } from '../../../src/snapshot/model-data.ts';
import { computeVideoInputs, videoGroup, videoInputKeys } from '../../../src/snapshot/page-inputs.ts';
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

describe('modelLines with each video\'s JSON seen (the build makes the input keys from it)', () => {
  // a lone surrogate, a comment on an unlisted video, a channel that does not exist (v5's carol)
  const odd = { ...catalogue, videos: catalogue.videos.map((v) => (v.id === 'v2' ? { ...v, title: 'half \ud83d pair' } : v)), comments: [...catalogue.comments, comment('c2', 'v4'), comment('c3', 'v1', { text: 'second' })] };

  it('writes the same lines as the JSON of each line array, related lists given as typed or plain arrays', () => {
    const derived = deriveCatalogue(odd);
    for (const related of [derived.related, derived.related.map((r) => Array.from(r))]) {
      const expected = [...modelLines(odd, derived, BASE_URL)].map((l) => l);
      const seen: string[] = [];
      // each with its place in the catalogue (the build keeps the keys by it: the model's entries are in that order)
      const written = [...modelLines(odd, { trending: derived.trending, related }, BASE_URL, (v, _json, _channel, _comments, i) => seen.push(odd.videos[i] === v ? v.id : `${v.id} at ${i}`))];
      expect(written).toEqual(expected);
      expect(written.filter((l) => l.startsWith('["video"'))).toEqual(odd.videos.map((v, i) => `${JSON.stringify(['video', v, derived.trending[i], Array.from(related[i]!)])}\n`));
      expect(seen).toEqual(odd.videos.map((v) => v.id));
    }
  });

  it('shows each video\'s JSON, its channel\'s and its comments\', from which the keys are computeVideoInputs\' own', () => {
    const key = videoInputKeys(BASE_URL);
    const keys = new Map<string, string>();
    for (const _ of modelLines(odd, deriveCatalogue(odd), BASE_URL, (v, json, channel, comments) => {
      expect(json).toBe(JSON.stringify(v));
      expect(channel).toBe(odd.channels.find((c) => c.username === v.channel) && JSON.stringify(odd.channels.find((c) => c.username === v.channel)));
      expect(comments).toEqual(odd.comments.filter((c) => c.videoId === v.id).map((c) => JSON.stringify(c)));
      keys.set(videoGroup(v.id), key(json, channel, comments));
    }));
    expect(keys).toEqual(computeVideoInputs(odd, BASE_URL));
    expect(new Set(keys.values()).size).toBe(odd.videos.length);
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


describe('loadModelLines', () => {
  it('builds, as the lines come, the model the catalogue builds: every resource, thread, related list and order alike, whatever the size of its blocks', () => {
    // every video's channel exists (the model refuses a video of no channel: build-model.ts)
    const whole = { ...catalogue, videos: catalogue.videos.filter((v) => v.channel !== 'carol') };
    const derived = deriveCatalogue(whole);
    const direct = buildModel(whole, derived, BASE_URL);
    for (const sizes of [{}, { relatedBlockInts: 1, textBlockBytes: 1 }, { relatedBlockInts: 3, textBlockBytes: 16 }]) {
      const loader = loadModelLines(sizes);
      for (const line of modelLines(whole, derived, BASE_URL)) loader.add(line.slice(0, -1));
      const loaded = runSteps(loader.finishInSteps());
      expect(loaded.entries.length).toBe(direct.entries.length);
      for (const e of direct.entries) {
        const other = loaded.entries[e.index]!;
        expect(JSON.stringify(other.resource)).toBe(JSON.stringify(e.resource));
        expect(JSON.stringify(other.threads)).toBe(JSON.stringify(e.threads));
        expect(JSON.stringify(other.video)).toBe(JSON.stringify(e.video));
        expect(Array.from(other.related)).toEqual(Array.from(e.related));
      }
      for (const sort of VIDEO_SORTS) expect(loaded.orders[sort].map((e) => e.index)).toEqual(direct.orders[sort].map((e) => e.index));
      expect(JSON.stringify(loaded.categories)).toBe(JSON.stringify(direct.categories));
      expect(JSON.stringify([...loaded.playlists.values()].map((p) => p.resource))).toBe(JSON.stringify([...direct.playlists.values()].map((p) => p.resource)));
      expect(JSON.stringify([...loaded.channels.values()].map((c) => c.resource))).toBe(JSON.stringify([...direct.channels.values()].map((c) => c.resource)));
      expect(loaded.live).toEqual(direct.live);
    }
  });

  it('refuses a damaged line, a line of no known kind and model data without its header, naming what is wrong', () => {
    const good = lines();
    const video = good.findIndex((l) => l.startsWith('["video"'));
    const cut = [...good];
    cut[video] = cut[video]!.slice(0, 30);
    const load = (text: string[]) => {
      const loader = loadModelLines();
      for (const line of text) loader.add(line.replace(/\n$/, ''));
      return runSteps(loader.finishInSteps());
    };
    expect(() => load(cut)).toThrow(new SyntaxError(`model data line ${video + 1} is not valid JSON (damaged)`));
    expect(() => load([...good, '["mystery",{}]'])).toThrow(/line \d+ is a record of no known kind/);
    expect(() => load([...good, '["video",{"id":"x"}]'])).toThrow(/line \d+: a video line without its trending score and related list/);
    expect(() => load(good.slice(1))).toThrow(/no header line/);
  });
});
