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

/**
 * The model data, a line at a time. Each line is the JSON array its `Line` type names, written
 * without building that array: the record's own JSON between the pieces around it (the same bytes).
 */
export function* modelLines(catalogue: PublicCatalogue, derived: Derived, baseUrl: string): Generator<string> {
  const line = (kind: Line[0], value: object) => `["${kind}",${JSON.stringify(value)}]\n`;
  yield line('header', { baseUrl });
  for (const c of catalogue.categories) yield line('category', c);
  for (const c of catalogue.channels) yield line('channel', c);
  const { videos } = catalogue;
  for (let i = 0; i < videos.length; i++) {
    const related = derived.related[i];
    // an integer list's JSON is its numbers joined by commas
    yield `["video",${JSON.stringify(videos[i])},${JSON.stringify(derived.trending[i] ?? 0)},[${related === undefined ? '' : Array.prototype.join.call(related, ',')}]]\n`;
  }
  for (const p of catalogue.playlists) yield line('playlist', p);
  for (const c of catalogue.comments) yield line('comment', c);
  for (const l of catalogue.live) yield line('live', l);
}

const VIDEO_PREFIX = '["video",';
const COMMA = 0x2c;
const ZERO = 0x30;
const NINE = 0x39;
const CLOSE = 0x5d;

/**
 * A video line as modelLines writes it ends with `,SCORE,[I,J,...]]`: where the score and the related
 * list start (undefined for a line of any other shape, which is then parsed as JSON whole). The
 * list holds only digits and commas, so its `[` is the line's last.
 */
function videoTail(text: string): { score: number; related: number; end: number } | undefined {
  const end = text.length - 2;
  if (text.charCodeAt(end) !== CLOSE || text.charCodeAt(end + 1) !== CLOSE) return undefined;
  const related = text.lastIndexOf('[');
  if (related < 0 || text.charCodeAt(related - 1) !== COMMA) return undefined;
  const score = text.lastIndexOf(',', related - 2);
  return score > VIDEO_PREFIX.length ? { score, related, end } : undefined;
}

/**
 * Reads the integers `I,J,...` of text[from, to) into `into` from `at`, without making an array of
 * them (ten million numbers at 100,000 videos): how many, or -1 if the text is anything else.
 */
function readIntegers(text: string, from: number, to: number, into: Int32Array, at: number): number {
  if (from === to) return 0;
  let n = 0;
  let value = 0;
  let digits = 0;
  for (let i = from; i <= to; i++) {
    const c = i === to ? COMMA : text.charCodeAt(i);
    if (c >= ZERO && c <= NINE && digits < 9) {
      value = value * 10 + (c - ZERO);
      digits++;
    } else if (c === COMMA && digits > 0) {
      into[at + n++] = value;
      value = 0;
      digits = 0;
    } else {
      return -1;
    }
  }
  return n;
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
  const reserve = (count: number) => {
    if (used + count <= pool.length) return;
    const grown = new Int32Array(Math.max(2 * pool.length, used + count));
    grown.set(pool.subarray(0, used));
    pool = grown;
  };
  const addVideo = (video: PublicVideo, score: number, related: readonly number[]) => {
    videos.push(video);
    trending.push(score);
    bounds.push(used);
    reserve(related.length);
    pool.set(related, used);
    used += related.length;
  };
  return {
    add(text) {
      if (text === '') return;
      const tail = text.startsWith(VIDEO_PREFIX) ? videoTail(text) : undefined;
      if (tail) {
        // at most one number every two characters
        reserve((tail.end - tail.related) >> 1);
        const count = readIntegers(text, tail.related + 1, tail.end, pool, used);
        if (count >= 0) {
          videos.push(JSON.parse(text.slice(VIDEO_PREFIX.length, tail.score)) as PublicVideo);
          trending.push(JSON.parse(text.slice(tail.score + 1, tail.related - 1)) as number);
          bounds.push(used);
          used += count;
          return;
        }
      }
      const line = JSON.parse(text) as Line;
      switch (line[0]) {
        case 'header': baseUrl = line[1].baseUrl; break;
        case 'category': categories.push(line[1]); break;
        case 'channel': channels.push(line[1]); break;
        case 'video': addVideo(line[1], line[2], line[3]); break;
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

