// The public-only data the dynamic handlers answer from, stored in the snapshot as NDJSON (one
// record a line, so no single string grows with the catalogue): the server rebuilds the same
// model from it that the build rendered the static pages with.
import { createModelBuilder, RELATED_BLOCK, type Derived, type Model, type ModelRecords } from '../model/build-model.ts';
import type { PublicCatalogue, PublicCategory, PublicChannel, PublicComment, PublicLiveStream, PublicPlaylist, PublicVideo } from '../catalogue/public-catalogue.ts';
import { fileLines } from '../lib/file-lines.ts';
import { runSteps, type Steps } from '../model/steps.ts';
import type { Changes } from '../catalogue/change-log.ts';
import type { ServedModelData } from './served-model-data.ts';
import type { FileBytes, TextPiece } from './text-files.ts';

type Line =
  | ['header', { baseUrl: string }]
  | ['category', PublicCategory]
  | ['channel', PublicChannel]
  | ['video', PublicVideo, number, number[]]
  | ['playlist', PublicPlaylist]
  | ['comment', PublicComment]
  | ['live', PublicLiveStream];

/**
 * What modelLines shows of each video as it writes it: the JSON of its record, of its channel's
 * (undefined when there is none) and of the comments on it, in catalogue order, exactly as the
 * lines hold them (the build makes the pages' input keys from them: page-inputs.ts
 * videoInputKeys; each record is serialised once), and its place in `catalogue.videos`.
 */
export type VideoJsonSeen = (video: PublicVideo, json: string, channel: string | undefined, comments: readonly string[], index: number) => void;

/**
 * What a build that knows what changed since the served snapshot takes from it (docs/architecture.md,
 * "Builds from the change log"): the lines of the records that did not change, and the input keys
 * of the videos whose inputs did not (the video, its channel and the comments on it: a comment
 * written logs the video it is on as `comments_on`, schema.ts LOGGED_TABLES).
 */
export interface ModelReuse {
  /** the served model data, checked whole */
  readonly served: ServedModelData;
  /** the records changed since the served snapshot's mark of the change log */
  readonly changes: Changes;
  /** whether trending and related are the served snapshot's (derived.bin taken): a video's line holds its score and related list */
  readonly sameDerived: boolean;
  /** the input key the served snapshot recorded for a video (page-inputs.ndjson, checked), if any */
  readonly servedKey: (id: string) => string | undefined;
  /** a video's served key, taken (instead of `seen`, for a video whose inputs did not change) */
  readonly keyTaken: (video: PublicVideo, key: string, index: number) => void;
  /** lines copied and keys taken, counted as they are */
  readonly counts: { videoLines: number; commentLines: number; keys: number };
}

/**
 * The lines of model data. Each line is `JSON.stringify` of its array; a record's JSON is made
 * once and put in its line as text (the same bytes). A video's comments are serialised before the
 * videos (for `seen`), their lines written in their place after the playlists.
 */
export function modelLines(catalogue: PublicCatalogue, derived: Derived, baseUrl: string, seen?: VideoJsonSeen): Generator<string> {
  // with nothing to reuse, every piece is text
  return modelPieces(catalogue, derived, baseUrl, seen) as Generator<string>;
}

/** Consecutive ranges of one file joined into runs, so that lines that follow each other are copied with a few reads. */
class Runs {
  private run: { fd: number; start: number; end: number } | undefined;
  /** takes `range`; the run it does not continue, ended, if any */
  add(range: FileBytes): FileBytes | undefined {
    if (this.run && this.run.fd === range.fd && this.run.end === range.start) {
      this.run.end = range.end;
      return undefined;
    }
    const ended = this.run;
    this.run = { ...range };
    return ended;
  }
  /** the run being made, ended (before a piece of text) */
  end(): FileBytes | undefined {
    const ended = this.run;
    this.run = undefined;
    return ended;
  }
}

/**
 * modelLines' pieces, with `reuse`: the line of a video or comment that did not change is the
 * served line's bytes (a range of the served file, joined into runs), and a video whose inputs did
 * not change takes its served key; every other line and key is made as modelLines makes it. The
 * bytes are the same (tests/unit/snapshot/change-log-build.test.ts).
 */
export function* modelPieces(catalogue: PublicCatalogue, derived: Derived, baseUrl: string, seen?: VideoJsonSeen, reuse?: ModelReuse): Generator<TextPiece> {
  const line = (value: Line) => `${JSON.stringify(value)}\n`;
  yield line(['header', { baseUrl }]);
  for (const c of catalogue.categories) yield line(['category', c]);
  const channels = seen && new Map<string, string>();
  for (const c of catalogue.channels) {
    const json = JSON.stringify(c);
    channels?.set(c.username, json);
    yield `["channel",${json}]\n`;
  }
  // the served keys of the videos whose inputs did not change (the others' keys are made, from the JSON of their inputs)
  const keys = reuse && catalogue.videos.map((v) =>
    (reuse.changes.video.has(v.id) || reuse.changes.comments_on.has(v.id) || reuse.changes.channel.has(v.channel) ? undefined : reuse.servedKey(v.id)));
  const making = (i: number) => keys === undefined || keys[i] === undefined;
  const madeFor = reuse && seen && new Set(catalogue.videos.filter((_, i) => making(i)).map((v) => v.id));
  // a comment's served line, when it did not change; its JSON when its line or its video's key needs it
  const commentLines = reuse && catalogue.comments.map((c) => (reuse.changes.comment.has(c.id) ? undefined : reuse.served.line('comment', c.id)));
  const comments = catalogue.comments.map((c, i) =>
    (commentLines?.[i] === undefined || madeFor === undefined || madeFor.has(c.videoId) ? JSON.stringify(c) : undefined));
  const byVideo = seen && new Map<string, string[]>();
  if (byVideo) {
    for (const [i, c] of catalogue.comments.entries()) {
      if (madeFor && !madeFor.has(c.videoId)) continue;
      const list = byVideo.get(c.videoId);
      if (list) list.push(comments[i]!);
      else byVideo.set(c.videoId, [comments[i]!]);
    }
  }
  const runs = new Runs();
  for (const [i, v] of catalogue.videos.entries()) {
    const served = reuse?.sameDerived && !reuse.changes.video.has(v.id) ? reuse.served.line('video', v.id) : undefined;
    let json: string | undefined;
    if (making(i)) {
      json = JSON.stringify(v);
      seen?.(v, json, channels!.get(v.channel), byVideo!.get(v.id) ?? [], i);
    } else {
      reuse!.keyTaken(v, keys![i]!, i);
      reuse!.counts.keys++;
    }
    if (served) {
      const ended = runs.add(served);
      if (ended) yield ended;
      reuse!.counts.videoLines++;
      continue;
    }
    const ended = runs.end();
    if (ended) yield ended;
    json ??= JSON.stringify(v);
    yield `["video",${json},${JSON.stringify(derived.trending[i] ?? 0)},${relatedJson(derived.related[i])}]\n`;
  }
  const afterVideos = runs.end();
  if (afterVideos) yield afterVideos;
  for (const p of catalogue.playlists) yield line(['playlist', p]);
  for (const [i, json] of comments.entries()) {
    const served = commentLines?.[i];
    if (served) {
      const ended = runs.add(served);
      if (ended) yield ended;
      reuse!.counts.commentLines++;
      continue;
    }
    const ended = runs.end();
    if (ended) yield ended;
    yield `["comment",${json}]\n`;
  }
  const afterComments = runs.end();
  if (afterComments) yield afterComments;
  for (const l of catalogue.live) yield line(['live', l]);
}

/** A related list as JSON: an Int32Array's numbers joined (integers: the same text), else JSON.stringify of its array. */
const relatedJson = (list: ArrayLike<number> | undefined): string =>
  (list instanceof Int32Array ? `[${list.join(',')}]` : JSON.stringify(Array.from(list ?? [])));

export interface ModelData {
  readonly baseUrl: string;
  readonly catalogue: PublicCatalogue;
  readonly derived: Derived;
}

/** What a line of model data is read into: the records of a model, and the header's base URL. */
export interface ModelLineSink extends ModelRecords {
  header(baseUrl: string): void;
}

/**
 * Reads one line of model data (`n`: its number, from 1) into `sink`. A line that is not a record
 * of a known kind is refused with a SyntaxError naming it; an empty line is skipped.
 */
export function readModelLine(text: string, n: number, sink: ModelLineSink): void {
  if (text === '') return;
  let line: Line;
  try {
    line = JSON.parse(text) as Line;
  } catch (error) {
    throw new SyntaxError(`model data line ${n} is not valid JSON (damaged)`);
  }
  if (!Array.isArray(line) || typeof line[1] !== 'object' || line[1] === null) throw new SyntaxError(`model data line ${n} is not a record`);
  switch (line[0]) {
    case 'header':
      if (typeof line[1].baseUrl !== 'string') throw new SyntaxError(`model data line ${n}: the header names no base URL`);
      sink.header(line[1].baseUrl);
      break;
    case 'category': sink.category(line[1]); break;
    case 'channel': sink.channel(line[1]); break;
    case 'video':
      if (typeof line[2] !== 'number' || !Array.isArray(line[3])) throw new SyntaxError(`model data line ${n}: a video line without its trending score and related list`);
      sink.video(line[1], line[2], line[3]);
      break;
    case 'playlist': sink.playlist(line[1]); break;
    case 'comment': sink.comment(line[1]); break;
    case 'live': sink.live(line[1]); break;
    default: throw new SyntaxError(`model data line ${n} is a record of no known kind`);
  }
}

/**
 * The model built from model data as its lines come (model/build-model.ts, createModelBuilder):
 * each line's record is turned at once into what the model keeps, so the parsed records are never
 * all held beside the model (the server's load: docs/reliability.md, "Server memory"). The model
 * is made by `finishInSteps`, once every line is in.
 */
export function loadModelLines(options: Parameters<typeof createModelBuilder>[0] = {}): { add(text: string): void; finishInSteps(): Steps<Model> } {
  const builder = createModelBuilder(options);
  let baseUrl: string | undefined;
  let n = 0;
  const sink: ModelLineSink = { ...builder, header: (url) => void (baseUrl = url) };
  return {
    add: (text) => readModelLine(text, ++n, sink),
    finishInSteps() {
      if (baseUrl === undefined) throw new SyntaxError('model data: no header line (no base URL)');
      return builder.finishInSteps(baseUrl);
    },
  };
}

/** Parses model data from lines (each one JSON value), in the order modelLines wrote them. */
export function parseModelLines(lines: Iterable<string>): ModelData {
  const collector = collectModelLines();
  for (const text of lines) collector.add(text);
  return collector.finish();
}

export { RELATED_BLOCK };

/** Related lists made views of between two pauses of finishInSteps. */
const VIEWS_A_STEP = 4096;

/**
 * Model data taken a line at a time, its records collected (tools and tests; the server builds
 * its model as the lines come: loadModelLines), then finished, at once (`finish`) or in steps
 * (`finishInSteps`, steps.ts). The related lists live in blocks of `blockInts` numbers made once
 * each, a list never straddling two.
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
  const sink: ModelLineSink = {
    header: (url) => void (baseUrl = url),
    category: (c) => void categories.push(c),
    channel: (c) => void channels.push(c),
    video(v, score, list) {
      videos.push(v);
      trending.push(score);
      if (used + list.length > block.length) {
        block = new Int32Array(Math.max(blockInts, list.length));
        used = 0;
      }
      block.set(list, used);
      blocks.push(block);
      starts.push(used);
      used += list.length;
      ends.push(used);
    },
    playlist: (p) => void playlists.push(p),
    comment: (c) => void comments.push(c),
    live: (l) => void live.push(l),
  };
  let n = 0;
  return {
    add: (text) => readModelLine(text, ++n, sink),
    finish: () => runSteps(finishInSteps()),
    finishInSteps,
  };
}

export const parseModelData = (text: string): ModelData => parseModelLines(text.split('\n'));

/** Reads a model data file a megabyte at a time, so no string of the whole file is ever held. */
export function readModelData(file: string): ModelData {
  return parseModelLines(fileLines(file));
}

/** Builds the model of a model data file as the server does (loadModelLines), at once: tools. */
export function readModel(file: string): Model {
  const loader = loadModelLines();
  for (const line of fileLines(file)) loader.add(line);
  return runSteps(loader.finishInSteps());
}

