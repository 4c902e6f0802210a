// The public-only data the dynamic handlers answer from, stored in the snapshot as NDJSON (one
// record a line, so no single string grows with the catalogue): the server rebuilds the same
// model from it that the build rendered the static pages with.
import type { Derived } from '../model/build-model.ts';
import type { PublicCatalogue, PublicCategory, PublicChannel, PublicComment, PublicLiveStream, PublicPlaylist, PublicVideo } from '../model/public-catalogue.ts';

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

export function parseModelData(text: string): ModelData {
  let baseUrl = '';
  const categories: PublicCategory[] = [];
  const channels: PublicChannel[] = [];
  const videos: PublicVideo[] = [];
  const playlists: PublicPlaylist[] = [];
  const comments: PublicComment[] = [];
  const live: PublicLiveStream[] = [];
  const trending: number[] = [];
  const related: ArrayLike<number>[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const line = JSON.parse(text.slice(start, end === -1 ? text.length : end)) as Line;
    start = end === -1 ? text.length : end + 1;
    switch (line[0]) {
      case 'header': baseUrl = line[1].baseUrl; break;
      case 'category': categories.push(line[1]); break;
      case 'channel': channels.push(line[1]); break;
      case 'video': videos.push(line[1]); trending.push(line[2]); related.push(Int32Array.from(line[3])); break;
      case 'playlist': playlists.push(line[1]); break;
      case 'comment': comments.push(line[1]); break;
      case 'live': live.push(line[1]); break;
    }
  }
  return { baseUrl, catalogue: { categories, channels, videos, playlists, comments, live }, derived: { trending, related } };
}
