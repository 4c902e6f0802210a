// Shape checks from docs/api-contract.md §2 and docs/api-contract.md §1–2. Each returns the list of violations (empty when the
// value conforms), so a failing test names every broken field at once.
import type { Truth, TruthVideo } from './catalogue-truth.ts';

export interface Creator { username?: string; displayName?: string; avatarUrl?: string; channelUrl?: string }
export interface Video {
  id: string; title: string; description?: string; category?: string; tags?: string[]; duration?: number;
  durationText?: string; views?: number; likes?: number; comments?: number; publishedAt?: string; updatedAt?: string;
  privacy?: string; thumbnailUrl: string; watchUrl: string; embedUrl: string;
  features?: Record<string, boolean>; creator: Creator;
}
export interface Paging { limit: number; offset: number; total: number; nextCursor: string | null }
export interface Page<T> { data: T[]; paging: Paging }
export interface Author { displayName: string; avatarUrl: string; username?: string }
export interface Reply { id: string; videoId: string; parentId: string; author: Author; text: string; likes: number; publishedAt: string }
export interface Thread extends Omit<Reply, 'parentId'> { parentId: null; replyCount: number; replies: Reply[] }
export interface Category { id: string; name: string; videoCount: number }
export interface Batch { data: Video[]; missing: string[] }
export interface Problem {
  type: string; title: string; status: number; detail: string; instance: string;
  errors?: { parameter: string; detail: string }[];
}
export interface Playback {
  videoId: string; modes: string[]; qualities: { label: string; height: number }[]; defaultQuality?: string;
  sources: { url: string; type: string; quality?: string; height?: number }[]; captions: { lang: string; label: string }[];
  '3d': { available: boolean }; calmAudio: { available: boolean }; restrictedMode: { available: boolean };
}

/** docs/api-contract.md §2's Video table, in full: a served video has these fields and no others. */
export const VIDEO_FIELDS = [
  'id', 'title', 'description', 'category', 'tags', 'duration', 'durationText', 'views', 'likes', 'comments',
  'publishedAt', 'updatedAt', 'privacy', 'thumbnailUrl', 'watchUrl', 'embedUrl', 'features', 'creator', 'thumbnails', 'chapters',
] as const;
export const VIDEO_REQUIRED = ['id', 'title', 'thumbnailUrl', 'watchUrl', 'embedUrl', 'creator'] as const;
export const CREATOR_FIELDS = ['username', 'displayName', 'avatarUrl', 'channelUrl'] as const;
export const FEATURE_KEYS = ['3d', 'calm', 'restricted', 'captions'] as const;

/** RFC 3339 in UTC with Z (docs/api-contract.md §1). */
export const RFC3339_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;

export function isAbsoluteUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function dateProblem(value: unknown, where: string): string[] {
  if (typeof value !== 'string' || !RFC3339_Z.test(value) || Number.isNaN(Date.parse(value))) {
    return [`${where} is not an RFC 3339 UTC date-time with Z: ${JSON.stringify(value)}`];
  }
  return [];
}

/** Every null in a JSON value whose path `allowed` does not accept (docs/api-contract.md §1: no nulls but two). */
export function nullProblems(value: unknown, allowed: (path: string) => boolean, path = '$'): string[] {
  if (value === null) return allowed(path) ? [] : [`${path} is null`];
  if (Array.isArray(value)) return value.flatMap((item, i) => nullProblems(item, allowed, `${path}[${i}]`));
  if (isRecord(value)) return Object.entries(value).flatMap(([k, v]) => nullProblems(v, allowed, `${path}.${k}`));
  return [];
}

/**
 * `durationText` read back into seconds, or a reason it is malformed (docs/api-contract.md §2: `M:SS` under an
 * hour, minutes without a leading zero; `H:MM:SS` from an hour).
 */
export function durationTextProblems(text: unknown, duration: number, where: string): string[] {
  if (typeof text !== 'string') return [`${where}.durationText is missing although duration is ${duration}`];
  const short = /^(0|[1-9]\d?):([0-5]\d)$/.exec(text);
  const long = /^([1-9]\d*):([0-5]\d):([0-5]\d)$/.exec(text);
  if (duration < 3600) {
    if (!short || Number(short[1]) > 59) return [`${where}.durationText "${text}" is not M:SS for ${duration} s`];
    return Number(short[1]) * 60 + Number(short[2]) === duration ? [] : [`${where}.durationText "${text}" does not spell ${duration} s`];
  }
  if (!long) return [`${where}.durationText "${text}" is not H:MM:SS for ${duration} s`];
  return Number(long[1]) * 3600 + Number(long[2]) * 60 + Number(long[3]) === duration ? [] : [`${where}.durationText "${text}" does not spell ${duration} s`];
}

export interface VideoCheck {
  readonly base: string;
  readonly truth?: Truth;
}

const sameInstant = (a: string, b: string): boolean => Date.parse(a) === Date.parse(b);

/** Everything docs/api-contract.md §1–2 says about one served Video, checked against the catalogue when given. */
export function videoProblems(value: unknown, check: VideoCheck, where = 'video'): string[] {
  if (!isRecord(value)) return [`${where} is not an object`];
  const out: string[] = [];
  const v = value;
  const id = typeof v['id'] === 'string' ? v['id'] : '?';
  const at = `${where}(${id})`;
  for (const key of Object.keys(v)) if (!(VIDEO_FIELDS as readonly string[]).includes(key)) out.push(`${at} has a field not in docs/api-contract.md §2: ${key}`);
  for (const key of VIDEO_REQUIRED) if (!(key in v)) out.push(`${at} lacks required ${key}`);
  for (const key of ['views', 'likes'] as const) if (!(key in v)) out.push(`${at} lacks ${key} (docs/api-contract.md §2: always present)`);
  for (const key of ['id', 'title', 'description', 'category', 'durationText', 'privacy'] as const) {
    if (key in v && typeof v[key] !== 'string') out.push(`${at}.${key} is not a string`);
  }
  if ('tags' in v && (!Array.isArray(v['tags']) || !v['tags'].every((t) => typeof t === 'string'))) out.push(`${at}.tags is not an array of strings`);
  if ('chapters' in v) {
    const chapters = v['chapters'];
    const valid = Array.isArray(chapters) && chapters.length > 0 && chapters.every((c, i) => isRecord(c) && isCount(c['start']) && typeof c['title'] === 'string'
      && Object.keys(c).length === 2 && (i === 0 || (c['start'] as number) > ((chapters[i - 1] as Record<string, number>)['start'] as number))
      && (!isCount(v['duration']) || (c['start'] as number) < (v['duration'] as number)));
    if (!valid) out.push(`${at}.chapters is not a non-empty list of {start, title} sorted by start inside the duration: ${JSON.stringify(chapters)}`);
  }
  for (const key of ['duration', 'views', 'likes', 'comments'] as const) {
    if (key in v && !isCount(v[key])) out.push(`${at}.${key} is not an integer >= 0: ${JSON.stringify(v[key])}`);
  }
  if (typeof v['duration'] === 'number') out.push(...durationTextProblems(v['durationText'], v['duration'], at));
  else if ('durationText' in v) out.push(`${at} has durationText without duration`);
  for (const key of ['publishedAt', 'updatedAt'] as const) if (key in v) out.push(...dateProblem(v[key], `${at}.${key}`));
  if ('privacy' in v && v['privacy'] !== 'public' && v['privacy'] !== 'unlisted') out.push(`${at}.privacy is ${JSON.stringify(v['privacy'])}`);
  if ('features' in v) {
    const f = v['features'];
    if (!isRecord(f)) out.push(`${at}.features is not an object`);
    else {
      const keys = Object.keys(f).sort();
      if (JSON.stringify(keys) !== JSON.stringify([...FEATURE_KEYS].sort())) out.push(`${at}.features keys are ${keys.join(',')}`);
      for (const k of keys) if (typeof f[k] !== 'boolean') out.push(`${at}.features.${k} is not a boolean`);
    }
  }
  const base = check.base;
  const truth = check.truth?.videos.get(id);
  const under = (url: unknown) => typeof url === 'string' && url.startsWith(`${base}/`);
  if (v['watchUrl'] !== `${base}/watch/${encodeURIComponent(id)}`) out.push(`${at}.watchUrl is ${JSON.stringify(v['watchUrl'])}, not ${base}/watch/{id}`);
  if (v['embedUrl'] !== `${base}/embed/${encodeURIComponent(id)}`) out.push(`${at}.embedUrl is ${JSON.stringify(v['embedUrl'])}, not ${base}/embed/{id}`);
  if (!isAbsoluteUrl(v['thumbnailUrl'])) out.push(`${at}.thumbnailUrl is not an absolute URL`);
  else if (truth && !(truth.thumbnailUrl === null ? under(v['thumbnailUrl']) : v['thumbnailUrl'] === truth.thumbnailUrl)) {
    out.push(`${at}.thumbnailUrl ${String(v['thumbnailUrl'])} is neither the catalogue's (${String(truth.thumbnailUrl)}) nor a generated one under ${base}`);
  }

  const creator = v['creator'];
  if (!isRecord(creator)) out.push(`${at}.creator is not an object`);
  else {
    for (const key of Object.keys(creator)) if (!(CREATOR_FIELDS as readonly string[]).includes(key)) out.push(`${at}.creator has a field not in docs/api-contract.md §2: ${key}`);
    for (const key of CREATOR_FIELDS) if (key in creator && typeof creator[key] !== 'string') out.push(`${at}.creator.${key} is not a string`);
    if ('avatarUrl' in creator && !isAbsoluteUrl(creator['avatarUrl'])) out.push(`${at}.creator.avatarUrl is not an absolute URL`);
    if ('channelUrl' in creator) {
      if (typeof creator['username'] === 'string' && creator['channelUrl'] !== `${base}/channels/${encodeURIComponent(creator['username'])}`) {
        out.push(`${at}.creator.channelUrl is ${JSON.stringify(creator['channelUrl'])}, not ${base}/channels/{username}`);
      } else if (!under(creator['channelUrl'])) out.push(`${at}.creator.channelUrl is not under ${base}`);
    }
    if (truth && check.truth) {
      const channel = check.truth.channels.get(truth.channel);
      if (creator['username'] !== truth.channel) out.push(`${at}.creator.username is ${JSON.stringify(creator['username'])}, the catalogue says ${truth.channel}`);
      if (channel && 'displayName' in creator && creator['displayName'] !== channel.displayName) out.push(`${at}.creator.displayName differs from the catalogue`);
      if (channel && 'avatarUrl' in creator && !(channel.avatarUrl === null ? under(creator['avatarUrl']) : creator['avatarUrl'] === channel.avatarUrl)) {
        out.push(`${at}.creator.avatarUrl ${String(creator['avatarUrl'])} is neither the catalogue's nor generated under ${base}`);
      }
    }
  }
  if (truth) out.push(...truthProblems(v, truth, at));
  out.push(...nullProblems(v, () => false, at));
  return out;
}

/** A served video agrees with its catalogue record. */
function truthProblems(v: Record<string, unknown>, t: TruthVideo, at: string): string[] {
  const out: string[] = [];
  const differs = (field: string, expected: unknown) => {
    if (JSON.stringify(v[field]) !== JSON.stringify(expected)) out.push(`${at}.${field} is ${JSON.stringify(v[field])}, the catalogue says ${JSON.stringify(expected)}`);
  };
  differs('title', t.title);
  if (t.description === null || t.description === '') {
    if ('description' in v && v['description'] !== '') out.push(`${at}.description is given but the catalogue has none`);
  } else differs('description', t.description);
  if (t.category === null) { if ('category' in v) out.push(`${at}.category is given but the catalogue has none`); } else differs('category', t.category);
  if (t.tags.length > 0 || 'tags' in v) differs('tags', t.tags);
  if (t.duration === null) { if ('duration' in v) out.push(`${at}.duration is given but the catalogue has none`); } else differs('duration', t.duration);
  differs('views', t.views);
  differs('likes', t.likes);
  differs('privacy', t.privacy);
  differs('features', t.features);
  if (typeof v['publishedAt'] !== 'string' || !sameInstant(v['publishedAt'], t.publishedAt)) out.push(`${at}.publishedAt ${String(v['publishedAt'])} is not the catalogue's ${t.publishedAt}`);
  if (t.updatedAt === null) { if ('updatedAt' in v) out.push(`${at}.updatedAt is given but the catalogue has none`); } else if (typeof v['updatedAt'] !== 'string' || !sameInstant(v['updatedAt'], t.updatedAt)) {
    out.push(`${at}.updatedAt ${String(v['updatedAt'])} is not the catalogue's ${t.updatedAt}`);
  }
  return out;
}

/** The list envelope of docs/api-contract.md §2: exactly `data` and `paging` with its four fields. */
export function envelopeProblems(value: unknown, where = 'page'): string[] {
  if (!isRecord(value)) return [`${where} is not an object`];
  const out: string[] = [];
  const keys = Object.keys(value).sort().join(',');
  if (keys !== 'data,paging') out.push(`${where} has keys ${keys}, not data,paging`);
  if (!Array.isArray(value['data'])) out.push(`${where}.data is not an array`);
  const p = value['paging'];
  if (!isRecord(p)) return [...out, `${where}.paging is not an object`];
  const pkeys = Object.keys(p).sort().join(',');
  if (pkeys !== 'limit,nextCursor,offset,total') out.push(`${where}.paging has keys ${pkeys}`);
  if (!isCount(p['limit']) || (p['limit'] as number) < 1 || (p['limit'] as number) > 50) out.push(`${where}.paging.limit is ${JSON.stringify(p['limit'])}`);
  if (!isCount(p['offset'])) out.push(`${where}.paging.offset is ${JSON.stringify(p['offset'])}`);
  if (!isCount(p['total'])) out.push(`${where}.paging.total is ${JSON.stringify(p['total'])}`);
  if (p['nextCursor'] !== null && (typeof p['nextCursor'] !== 'string' || p['nextCursor'] === '')) out.push(`${where}.paging.nextCursor is ${JSON.stringify(p['nextCursor'])}`);
  return out;
}

/** RFC 9457 as docs/api-contract.md §5 shapes it; `errors` only where allowed (400s carry it). */
export function problemShapeProblems(value: unknown, base: string, status: number): string[] {
  if (!isRecord(value)) return ['problem body is not an object'];
  const out: string[] = [];
  for (const key of ['type', 'title', 'detail', 'instance'] as const) {
    if (typeof value[key] !== 'string' || value[key] === '') out.push(`problem.${key} is not a non-empty string`);
  }
  if (value['status'] !== status) out.push(`problem.status is ${JSON.stringify(value['status'])}, the response status is ${status}`);
  const type = value['type'];
  if (typeof type === 'string' && !new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/problems/[a-z0-9]+(-[a-z0-9]+)*$`).test(type)) {
    out.push(`problem.type ${type} is not ${base}/problems/{slug}`);
  }
  for (const key of Object.keys(value)) {
    if (!['type', 'title', 'status', 'detail', 'instance', 'errors'].includes(key)) out.push(`problem has an unexpected member ${key}`);
  }
  if ('errors' in value) {
    const errors = value['errors'];
    if (!Array.isArray(errors) || errors.length === 0) out.push('problem.errors is not a non-empty array');
    else {
      for (const e of errors) {
        if (!isRecord(e) || typeof e['parameter'] !== 'string' || typeof e['detail'] !== 'string' || Object.keys(e).sort().join(',') !== 'detail,parameter') {
          out.push(`problem.errors item ${JSON.stringify(e)} is not {parameter, detail}`);
        }
      }
    }
  } else if (status === 400 && String(value['type']).endsWith('/problems/invalid-parameter')) out.push('an invalid-parameter problem lacks errors[]');
  // docs/api-contract.md §5: never a stack trace, SQL, or a file path.
  const text = JSON.stringify(value);
  if (/\bat .+\(.*:\d+:\d+\)|node:internal|\.ts:\d+|\/work\/|\/home\/|\/tmp\/|SQLITE|SELECT .* FROM/i.test(text)) out.push(`problem leaks internals: ${text.slice(0, 300)}`);
  return out;
}

/** One served comment thread or reply, against the catalogue (docs/api-contract.md §2 Comment). */
export function commentProblems(value: unknown, base: string, truth: Truth, videoId: string, parent: string | null, where: string): string[] {
  if (!isRecord(value)) return [`${where} is not an object`];
  const out: string[] = [];
  const expectedKeys = parent === null
    ? ['author', 'id', 'likes', 'parentId', 'publishedAt', 'replies', 'replyCount', 'text', 'videoId']
    : ['author', 'id', 'likes', 'parentId', 'publishedAt', 'text', 'videoId'];
  const keys = Object.keys(value).sort();
  if (keys.join(',') !== expectedKeys.join(',')) out.push(`${where} has keys ${keys.join(',')}, expected ${expectedKeys.join(',')}`);
  const id = String(value['id']);
  const t = truth.comments.find((c) => c.id === id);
  if (!t) return [...out, `${where} has id ${id}, which is not in the catalogue`];
  if (value['videoId'] !== videoId) out.push(`${where}.videoId is ${JSON.stringify(value['videoId'])}`);
  if (value['parentId'] !== parent) out.push(`${where}.parentId is ${JSON.stringify(value['parentId'])}, expected ${JSON.stringify(parent)}`);
  if (value['text'] !== t.text) out.push(`${where}.text differs from the catalogue`);
  if (value['likes'] !== t.likes) out.push(`${where}.likes is ${JSON.stringify(value['likes'])}, the catalogue says ${t.likes}`);
  out.push(...dateProblem(value['publishedAt'], `${where}.publishedAt`));
  if (typeof value['publishedAt'] === 'string' && !sameInstant(value['publishedAt'], t.publishedAt)) out.push(`${where}.publishedAt is not the catalogue's`);
  const author = value['author'];
  if (!isRecord(author)) out.push(`${where}.author is not an object`);
  else {
    const akeys = Object.keys(author);
    for (const k of akeys) if (!['displayName', 'avatarUrl', 'username'].includes(k)) out.push(`${where}.author has ${k}`);
    if (author['displayName'] !== t.authorDisplayName) out.push(`${where}.author.displayName differs from the catalogue`);
    if (!isAbsoluteUrl(author['avatarUrl'])) out.push(`${where}.author.avatarUrl is not an absolute URL`);
    else if (t.authorAvatarUrl !== null ? author['avatarUrl'] !== t.authorAvatarUrl : !String(author['avatarUrl']).startsWith(`${base}/`)) {
      out.push(`${where}.author.avatarUrl is neither the catalogue's nor generated under ${base}`);
    }
    if (t.authorUsername === null ? 'username' in author : author['username'] !== t.authorUsername) out.push(`${where}.author.username differs from the catalogue`);
  }
  out.push(...nullProblems(value, (path) => parent === null && path === `${where}.parentId`, where));
  return out;
}

export interface Channel {
  username: string; displayName: string; description: string; avatarUrl: string; bannerUrl?: string; channelUrl: string;
  subscribers: number; views: number; videos: number; playlists: number; createdAt: string; isLive: boolean;
}
export interface Playlist {
  id: string; title: string; description: string; privacy: string; videoCount: number; thumbnailUrl: string;
  creator: Creator; createdAt: string; updatedAt: string;
}
export interface LiveChannel {
  channel: { username: string; displayName: string; avatarUrl: string; channelUrl: string };
  state: 'live' | 'upcoming' | 'offline'; title: string; startedAt?: string; scheduledFor?: string; viewers?: number;
  watchUrl: string; embedUrl: string; thumbnailUrl: string;
}
export interface Shelf<T> { id: string; title: string; items: T[] }
export interface Discovery { shelves: [Shelf<Video>, Shelf<Video>, Shelf<Video>, Shelf<Category>, Shelf<LiveChannel>] }

/** docs/api-contract.md §2's fields of each resource; `bannerUrl` is the only optional one of a channel. */
export const CHANNEL_FIELDS = ['username', 'displayName', 'description', 'avatarUrl', 'bannerUrl', 'channelUrl', 'subscribers', 'views', 'videos', 'playlists', 'createdAt', 'isLive'] as const;
export const PLAYLIST_FIELDS = ['id', 'title', 'description', 'privacy', 'videoCount', 'thumbnailUrl', 'creator', 'createdAt', 'updatedAt'] as const;
export const LIVE_FIELDS = ['channel', 'state', 'title', 'startedAt', 'scheduledFor', 'viewers', 'watchUrl', 'embedUrl', 'thumbnailUrl'] as const;

/** Keys of a record that a resource's field list does not name. */
export function extraKeys(value: unknown, fields: readonly string[], where: string): string[] {
  if (!isRecord(value)) return [`${where} is not an object`];
  return Object.keys(value).filter((k) => !fields.includes(k)).map((k) => `${where} has an undocumented field ${k}`);
}

/** Every URL-valued field in a JSON value (`...Url` keys and oEmbed-style `*_url`), with its path. */
export function urlFields(value: unknown, path = '$'): { path: string; url: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => urlFields(item, `${path}[${i}]`));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    typeof v === 'string' && /Url$|_url$/.test(k) ? [{ path: `${path}.${k}`, url: v }] : urlFields(v, `${path}.${k}`));
}
