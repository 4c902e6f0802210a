// The public-only data the dynamic handlers answer from, stored in the snapshot as NDJSON (one
// record a line, so no single string grows with the catalogue): the server rebuilds the same
// model from it that the build rendered the static pages with.
import type { Derived } from '../model/build-model.ts';
import type { PublicCatalogue, PublicCategory, PublicChannel, PublicComment, PublicLiveStream, PublicPlaylist, PublicVideo } from '../catalogue/public-catalogue.ts';
import { fileLines } from '../lib/file-lines.ts';

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

/** Model data taken a line at a time (so a caller may pause between lines), then finished. */
export function collectModelLines(): { add(text: string): void; finish(): ModelData } {
  let baseUrl = '';
  const categories: PublicCategory[] = [];
  const channels: PublicChannel[] = [];
  const videos: PublicVideo[] = [];
  const playlists: PublicPlaylist[] = [];
  const comments: PublicComment[] = [];
  const live: PublicLiveStream[] = [];
  const trending: number[] = [];
  // Every related list is a view of one buffer: one backing store instead of one per video, which
  // the garbage collector would otherwise track one by one. The buffer grows as lines come (no
  // array of numbers first: ~10 million of them at 100,000 videos, 80 MB and more of garbage).
  let pool = new Int32Array(1 << 16);
  let used = 0;
  const bounds: number[] = [];
  return {
    add(text) {
      if (text === '') return;
      const line = JSON.parse(text) as Line;
      switch (line[0]) {
        case 'header': baseUrl = line[1].baseUrl; break;
        case 'category': categories.push(line[1]); break;
        case 'channel': channels.push(line[1]); break;
        case 'video':
          videos.push(line[1]);
          trending.push(line[2]);
          bounds.push(used);
          if (used + line[3].length > pool.length) {
            const grown = new Int32Array(Math.max(2 * pool.length, used + line[3].length));
            grown.set(pool.subarray(0, used));
            pool = grown;
          }
          pool.set(line[3], used);
          used += line[3].length;
          break;
        case 'playlist': playlists.push(line[1]); break;
        case 'comment': comments.push(line[1]); break;
        case 'live': live.push(line[1]); break;
      }
    },
    finish() {
      const all = pool.length === used ? pool : pool.slice(0, used);
      const related = bounds.map((start, i) => all.subarray(start, bounds[i + 1] ?? used));
      return { baseUrl, catalogue: { categories, channels, videos, playlists, comments, live }, derived: { trending, related } };
    },
  };
}

export const parseModelData = (text: string): ModelData => parseModelLines(text.split('\n'));

/** Reads a model data file a megabyte at a time, so no string of the whole file is ever held. */
export function readModelData(file: string): ModelData {
  return parseModelLines(fileLines(file));
}

