// The public-only data the dynamic handlers answer from, stored in the snapshot as NDJSON (one
// record a line, so no single string grows with the catalogue): the server rebuilds the same
// model from it that the build rendered the static pages with.
import type { Derived } from '../model/build-model.ts';
import type { PublicCatalogue, PublicCategory, PublicChannel, PublicComment, PublicLiveStream, PublicPlaylist, PublicVideo } from '../catalogue/public-catalogue.ts';
import { fileLines } from '../lib/file-lines.ts';
import { runSteps, type Steps } from '../model/steps.ts';

type Line =
  | ['header', { baseUrl: string }]
  | ['category', PublicCategory]
  | ['channel', PublicChannel]
  | ['video', PublicVideo, number, number[]]
  | ['playlist', PublicPlaylist]
  | ['comment', PublicComment]
  | ['live', PublicLiveStream];

export function* modelLines(catalogue: PublicCatalogue, derived: Derived, baseUrl: string): Generator<string> {
  const line = (value: Line) => `${JSON.stringify(value)}\n`;
  yield line(['header', { baseUrl }]);
  for (const c of catalogue.categories) yield line(['category', c]);
  for (const c of catalogue.channels) yield line(['channel', c]);
  for (const [i, v] of catalogue.videos.entries()) yield line(['video', v, derived.trending[i] ?? 0, Array.from(derived.related[i] ?? [])]);
  for (const p of catalogue.playlists) yield line(['playlist', p]);
  for (const c of catalogue.comments) yield line(['comment', c]);
  for (const l of catalogue.live) yield line(['live', l]);
}

export interface ModelData {
  readonly baseUrl: string;
  readonly catalogue: PublicCatalogue;
  readonly derived: Derived;
}

/** Parses model data from lines (each one JSON value), in the order modelLines wrote them. */
export function parseModelLines(lines: Iterable<string>): ModelData {
  const collector = collectModelLines();
  for (const text of lines) collector.add(text);
  return collector.finish();
}

/** Related numbers in one block of the related lists' memory (4 MB): see collectModelLines. */
export const RELATED_BLOCK = 1 << 20;

/** Related lists made views of between two pauses of finishInSteps. */
const VIEWS_A_STEP = 4096;

/**
 * Model data taken a line at a time (so a caller may pause between lines), then finished, at once
 * (`finish`) or in steps (`finishInSteps`, steps.ts) for the server, which must not hold its event
 * loop. The related lists live in blocks of `blockInts` numbers made once each: one backing store a
 * block instead of one a video, which the garbage collector would otherwise track one by one, and
 * no buffer is ever grown by copying (a doubling of a 32 MB buffer held the server's event loop
 * for 200–300 ms at 100,000 videos: docs/reliability.md, "Loading without a stall"). A list never
 * straddles two blocks.
 */
export function collectModelLines(blockInts = RELATED_BLOCK): { add(text: string): void; finish(): ModelData; finishInSteps(): Steps<ModelData> } {
  let baseUrl = '';
  const categories: PublicCategory[] = [];
  const channels: PublicChannel[] = [];
  const videos: PublicVideo[] = [];
  const playlists: PublicPlaylist[] = [];
  const comments: PublicComment[] = [];
  const live: PublicLiveStream[] = [];
  const trending: number[] = [];
  let block = new Int32Array(blockInts);
  let used = 0;
  /** where each video's list is: its block, and its start and end in it */
  const blocks: Int32Array[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  function* finishInSteps(): Steps<ModelData> {
    const related: Int32Array[] = new Array<Int32Array>(starts.length);
    for (let i = 0; i < starts.length; i++) {
      related[i] = blocks[i]!.subarray(starts[i]!, ends[i]!);
      if ((i + 1) % VIEWS_A_STEP === 0) yield;
    }
    return { baseUrl, catalogue: { categories, channels, videos, playlists, comments, live }, derived: { trending, related } };
  }
  return {
    add(text) {
      if (text === '') return;
      const line = JSON.parse(text) as Line;
      switch (line[0]) {
        case 'header': baseUrl = line[1].baseUrl; break;
        case 'category': categories.push(line[1]); break;
        case 'channel': channels.push(line[1]); break;
        case 'video': {
          const list = line[3];
          videos.push(line[1]);
          trending.push(line[2]);
          if (used + list.length > block.length) {
            block = new Int32Array(Math.max(blockInts, list.length));
            used = 0;
          }
          block.set(list, used);
          blocks.push(block);
          starts.push(used);
          used += list.length;
          ends.push(used);
          break;
        }
        case 'playlist': playlists.push(line[1]); break;
        case 'comment': comments.push(line[1]); break;
        case 'live': live.push(line[1]); break;
      }
    },
    finish: () => runSteps(finishInSteps()),
    finishInSteps,
  };
}

export const parseModelData = (text: string): ModelData => parseModelLines(text.split('\n'));

/** Reads a model data file a megabyte at a time, so no string of the whole file is ever held. */
export function readModelData(file: string): ModelData {
  return parseModelLines(fileLines(file));
}

