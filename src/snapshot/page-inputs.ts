// What a group of prerendered pages is rendered from, so that an incremental build skips rendering
// the pages whose inputs did not change and copies their bytes and variants from the served
// snapshot instead (docs/architecture.md, "Incremental builds"). The dependency rules are declared
// here, once:
//
// - **A video's pages** (`/v1/videos/{id}`, its `/playback` and the first page of its `/comments`)
//   are made from the base URL, the video's own record, its channel's record (the creator shown in
//   it) and the published comments on it (the threads, and the count in the video). Nothing else:
//   no other video, no list position, no trending score, no related list, no total.
//
// - **Every other page** (lists, channels, playlists, categories) is made from its answer: the
//   handler runs (cheap: it picks prebuilt resources from the model's indexes), and the page's key
//   is the SHA-256 of the base URL, the answer's status, next link, noindex flag and body as JSON,
//   with each video resource in it replaced by its video's input key (the rule above: what a video
//   resource is made from). Orders, totals, cursors, counts and every other field are in the key as
//   they are; only the serialisation of unchanged videos is spared.
//
// - **A video sitemap or a feed** (src/site/site-files.ts siteFileInputs) is made from its facts
//   (plain data: a feed's title, links, dates) and the videos it lists, in order, each shown from
//   the inputs of the first rule: its key is the SHA-256 of the facts as JSON and those videos'
//   keys (site-file-stamps.ts). The sitemap index and page sitemaps have no key: always rendered.
//
// Each build records the key of every video and every other page in `page-inputs.ndjson` (listed
// in the manifest, so the snapshot id covers it). A page is copied from the served snapshot,
// unrendered, when that snapshot recorded the same key for it and the same build code made it
// (the code that turns inputs into bytes is then the same).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answer } from '../api/endpoint.ts';
import type { PageFacts } from '../api/paging.ts';
import type { PublicCatalogue } from '../catalogue/public-catalogue.ts';
import { entryOfResource, type Model } from '../model/build-model.ts';
import { standInEntry } from '../model/entries.ts';
import type { FileRecord } from './manifest.ts';
import { writeTextOffThread } from './write-text-off-thread.ts';

export const PAGE_INPUTS_FILE = 'page-inputs.ndjson';

/** The input key of every video's pages (`video:<id>`) and of every other page (by URL). */
export type PageInputs = ReadonlyMap<string, string>;

/** The name of the group a video's pages belong to. */
export const videoGroup = (id: string): string => `video:${id}`;

/** The name under which a site file's input key is recorded (site-file-stamps.ts). */
export const siteGroup = (path: string): string => `site:${path}`;

/**
 * The input key of each video's pages: the SHA-256 of the base URL, the video's record, its
 * channel's record and the published comments on it (catalogue order), as JSON.
 */
export function computeVideoInputs(catalogue: PublicCatalogue, baseUrl: string): Map<string, string> {
  const channels = new Map(catalogue.channels.map((c) => [c.username, JSON.stringify(c)]));
  const comments = new Map<string, string[]>();
  for (const c of catalogue.comments) {
    const list = comments.get(c.videoId);
    if (list) list.push(JSON.stringify(c));
    else comments.set(c.videoId, [JSON.stringify(c)]);
  }
  const inputs = new Map<string, string>();
  const key = videoInputKeys(baseUrl);
  for (const v of catalogue.videos) inputs.set(videoGroup(v.id), key(JSON.stringify(v), channels.get(v.channel), comments.get(v.id) ?? []));
  return inputs;
}

/**
 * The rule of computeVideoInputs from the JSON of a video's parts, already made (the build
 * serialises each record once, for the model data and for its key: model-data.ts modelLines):
 * the video's, its channel's (undefined when there is none) and its comments' in catalogue order.
 */
export function videoInputKeys(baseUrl: string): (video: string, channel: string | undefined, comments: readonly string[]) => string {
  const base = JSON.stringify(baseUrl);
  return (video, channel, comments) => {
    const hash = createHash('sha256').update(base).update('\n').update(video).update('\n').update(channel ?? 'null');
    for (const comment of comments) hash.update('\n').update(comment);
    return hash.digest('base64');
  };
}

/**
 * Each video's input key by its entry's place in the model (`model.entries[i]`: entry.index), looked
 * up once: a lookup by group name makes and hashes a new string each time, and the pages and site
 * files look up videos hundreds of thousands of times (docs/performance.md, "The phases before the
 * pages, eighth round"). A build makes them once, for the site files and the pages (they are fixed
 * once the model data is written: build-snapshot.ts).
 */
export type VideoKeys = readonly (string | undefined)[];

export function videoKeysOf(model: Model, inputs: PageInputs): VideoKeys {
  return model.entries.map((entry) => inputs.get(videoGroup(entry.video.id)));
}

const VIDEO_GROUP = videoGroup('');

/** The code-unit order of `group`'s id (after `video:`) and `id`, compared in place: no string made. */
function compareVideoId(group: string, id: string): number {
  const at = VIDEO_GROUP.length;
  const n = Math.min(group.length - at, id.length);
  for (let i = 0; i < n; i++) {
    const d = group.charCodeAt(at + i) - id.charCodeAt(i);
    if (d !== 0) return d;
  }
  return group.length - at - id.length;
}

/**
 * The served key of each video's pages (`previous.get(videoGroup(id))`), asked for the videos in
 * code-unit order of their ids (the pages' plan: plan-pages.ts): the served groups are listed in
 * that order too (writePageInputs), so each id is compared in place with the next served video
 * group, and the served keys are walked alongside, instead of a `video:<id>` string made and
 * hashed per video. An id not found there (a video added, or asked out of order) is looked up by
 * name: the answer is always the map's.
 */
export function servedVideoKeys(previous: PageInputs): (id: string) => string | undefined {
  const groups: string[] = [];
  const keys: string[] = [];
  for (const [group, key] of previous) {
    if (!group.startsWith(VIDEO_GROUP)) continue;
    groups.push(group);
    keys.push(key);
  }
  let next = 0;
  return (id) => {
    while (next < groups.length) {
      const order = compareVideoId(groups[next]!, id);
      if (order === 0) return keys[next++];
      if (order > 0) break;
      next++; // a served video this build does not have (or asked out of order: looked up by name below)
    }
    return previous.get(videoGroup(id));
  };
}

/**
 * The replacer of the second rule above: a video resource (a stand-in: entries.ts withStandIns, or
 * a real one, recognised by its id and watch URL) becomes `\u0000` and its video's key; a string
 * starting with NUL is escaped, so no field can pass for a video's key.
 */
function keyReplacer(model: Model, keys: VideoKeys): (key: string, value: unknown) => unknown {
  return (_, value) => {
    if (typeof value === 'string') return value.startsWith('\u0000') ? `\u0000${value}` : value;
    if (typeof value !== 'object' || value === null) return value;
    // video resources are made when asked, so they are recognised, not looked up by identity; a
    // stand-in (entries.ts withStandIns) names its entry, which is the one its id and URL name
    const entry = standInEntry(value) ?? entryOfResource(model, value);
    const key = entry === undefined ? undefined : keys[entry.index];
    return key === undefined ? value : `\u0000${key}`;
  };
}

/**
 * The key of an answered page (the second rule above): a function of the answer that serialises
 * no video resource, only its input key.
 */
export function createAnswerKeys(model: Model, inputs: PageInputs, baseUrl: string, keys: VideoKeys = videoKeysOf(model, inputs)): (answer: Answer) => string {
  const replace = keyReplacer(model, keys);
  return (answer) => createHash('sha256')
    .update(JSON.stringify([baseUrl, answer.status ?? 200, answer.next ?? null, answer.noindex === true, answer.body], replace))
    .digest('base64');
}

/**
 * The same key for a page of a list (src/api/paging.ts paginatePositions's answer: status 200, no
 * noindex, a body of `data` and `paging`) made from its facts and its items (`items[i]` for the
 * positions `facts.from` to `facts.to`, counted from `at`: stand-ins for videos) instead of from the
 * answer: the text is the one `JSON.stringify` makes of that answer with the replacer, pieced
 * together, each video's piece made once for all the pages that list it (docs/architecture.md,
 * "Incremental builds"). tests/unit/snapshot/list-keys.test.ts checks it against createAnswerKeys
 * for every planned list page, and every build for the first page of each list endpoint
 * (list-keys.ts).
 */
export function createListPageKeys(model: Model, inputs: PageInputs, baseUrl: string, keys: VideoKeys = videoKeysOf(model, inputs)): (facts: PageFacts, items: ArrayLike<unknown>, at: number) => string {
  const replace = keyReplacer(model, keys);
  const head = `[${JSON.stringify(replace('0', baseUrl))},200,`;
  // each video's piece by its entry's place (a video is listed on several pages: latest, its channel's, its playlists')
  const pieces: (string | undefined)[] = new Array<string | undefined>(model.entries.length).fill(undefined);
  const pieceOf = (item: unknown): string => {
    const entry = typeof item === 'object' && item !== null ? standInEntry(item) : undefined;
    if (entry !== undefined && entry.index < pieces.length && model.entries[entry.index] === entry) {
      const made = pieces[entry.index];
      if (made !== undefined) return made;
    }
    // JSON.stringify calls the replacer on each item, then serialises what it gave with it (a string as it is)
    const replaced = replace('', item);
    const piece = typeof replaced === 'string' ? JSON.stringify(replaced) : JSON.stringify(replaced, replace) ?? 'null';
    if (entry !== undefined && entry.index < pieces.length && model.entries[entry.index] === entry) pieces[entry.index] = piece;
    return piece;
  };
  return (facts, items, at) => {
    let data = '';
    for (let i = facts.from; i < facts.to; i++) data += (i === facts.from ? '' : ',') + pieceOf(items[i - at]);
    const next = facts.next === undefined ? 'null' : JSON.stringify(replace('1', facts.next));
    return createHash('sha256')
      .update(`${head}${next},false,{"data":[${data}],"paging":${JSON.stringify(facts.paging, replace)}}]`)
      .digest('base64');
  };
}

/**
 * Writes the keys a line each (`[group, key]`, groups in code-unit order); the file's record for the
 * manifest. The lines are made here, written and hashed on a worker thread (write-text-off-thread.ts).
 */
export function writePageInputs(dir: string, inputs: PageInputs): Promise<FileRecord> {
  const groups = [...inputs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // a line is `JSON.stringify([group, key])`, each string's JSON made apart (the same text), written a piece at a time
  return writeTextOffThread(join(dir, PAGE_INPUTS_FILE), (function* () {
    for (const group of groups) yield `[${JSON.stringify(group)},${JSON.stringify(inputs.get(group))}]\n`;
  })());
}

const SPLIT = '","';

/**
 * A line's group and key: a line without a backslash holds no escape, so its strings are the text
 * between its quotes, split at the one `","` (a string without an escape holds no quote); any other
 * line is parsed as JSON. Undefined when the line is not a pair of strings.
 */
function parseInputLine(line: string): [string, string] | undefined {
  if (line.startsWith('["') && line.endsWith('"]') && !line.includes('\\')) {
    const at = line.indexOf(SPLIT, 2);
    if (at !== -1 && line.indexOf('"', 2) === at && line.indexOf('"', at + SPLIT.length) === line.length - 2) return [line.slice(2, at), line.slice(at + SPLIT.length, -2)];
  }
  const parsed: unknown = JSON.parse(line);
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') return undefined;
  return [parsed[0], parsed[1]];
}

/**
 * The keys a snapshot recorded, or undefined when it has none, when the file is not the one its
 * manifest records (size and SHA-256) or cannot be read: then every page is rendered.
 */
export function readPageInputs(dir: string, recorded: FileRecord | undefined): PageInputs | undefined {
  if (recorded === undefined) return undefined;
  try {
    const bytes = readFileSync(join(dir, PAGE_INPUTS_FILE));
    if (bytes.length !== recorded.size || createHash('sha256').update(bytes).digest('hex') !== recorded.sha256) return undefined;
    const inputs = new Map<string, string>();
    for (const line of bytes.toString('utf8').split('\n')) {
      if (line === '') continue;
      const pair = parseInputLine(line);
      if (pair === undefined) return undefined;
      inputs.set(pair[0], pair[1]);
    }
    return inputs;
  } catch {
    return undefined;
  }
}
