// The URLs of bench:mix, from a snapshot's manifest (its keys are the prerendered pages): offset-
// paged list pages with filters and sorts, video pages, comment pages; the same every run.
import { readFileSync } from 'node:fs';
import type { Manifest } from '../../src/snapshot/manifest.ts';
import { UsageError } from '../cli.ts';

const SORTS = ['latest', 'trending', 'views', 'likes'];
const DURATIONS = ['short', 'medium', 'long'];
const FEATURES = ['captions', 'calm', '3d', 'restricted'];

/** A small deterministic generator (mulberry32): the same URLs every run. */
function randomFrom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: readonly T[]): T => list[int(list.length)]! };
}

interface Catalogue {
  readonly videos: string[];
  readonly comments: string[];
  readonly categories: string[];
  readonly channels: string[];
  readonly playlists: string[];
}

/** What the URLs are made of, from the snapshot's manifest (its keys are the prerendered pages). */
function readCatalogue(manifestFile: string): Catalogue {
  const keys = Object.keys((JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest).pages);
  const matching = (pattern: RegExp) => keys.flatMap((k) => { const m = pattern.exec(k); return m ? [m[1] ?? m[0]] : []; });
  return {
    videos: matching(/^\/v1\/videos\/[^/?%]+$/),
    comments: matching(/^\/v1\/videos\/[^/?%]+\/comments(?:\?.*)?$/),
    categories: [...new Set(matching(/^\/v1\/videos\?(?:.*&)?category=([^&]+)/))],
    channels: [...new Set(matching(/^\/v1\/channels\/([^/?%]+)\/videos/))],
    playlists: matching(/^\/v1\/playlists\/([^/?%]+)$/),
  };
}

/** An offset-paged list page: mostly /v1/videos with filters and a sort, some nested lists. */
function listUrl(r: ReturnType<typeof randomFrom>, c: Catalogue): string {
  const limit = 1 + r.int(50);
  const kind = r.next();
  if (kind < 0.15) return `/v1/channels/${r.pick(c.channels)}/videos?offset=${r.int(200)}&limit=${limit}`;
  if (kind < 0.2) return `/v1/playlists/${r.pick(c.playlists)}/videos?offset=${r.int(30)}&limit=${limit}`;
  if (kind < 0.25) return `/v1/channels?sort=${r.pick(['subscribers', 'views', 'videos'])}&offset=${r.int(500)}&limit=${limit}`;
  const query = new URLSearchParams();
  if (r.next() < 0.8) query.set('category', r.pick(c.categories));
  if (r.next() < 0.15) query.set('creator', r.pick(c.channels));
  if (r.next() < 0.3) query.set('duration', r.pick(DURATIONS));
  if (r.next() < 0.3) query.set('feature', r.pick(FEATURES));
  query.set('sort', r.pick(SORTS));
  query.set('offset', String(r.int(query.size > 2 ? 800 : 3000)));
  query.set('limit', String(limit));
  return `/v1/videos?${query}`;
}

function sample<T>(r: ReturnType<typeof randomFrom>, list: readonly T[], n: number): T[] {
  if (list.length === 0) throw new UsageError('the snapshot has no pages of a kind the mix needs');
  return Array.from({ length: n }, () => r.pick(list));
}

/** The mix (or its list pages alone) and `first` further list pages for the first-request latency. */
export function mixUrls(manifestFile: string, listsOnly: boolean, first: number): { urls: string[]; firsts: string[] } {
  const catalogue = readCatalogue(manifestFile);
  const r = randomFrom(5000);
  const lists = Array.from({ length: 2000 }, () => listUrl(r, catalogue));
  const urls = listsOnly ? lists : [
    ...lists, ...sample(r, catalogue.videos, 2000), ...sample(r, catalogue.comments, 980),
    ...Array.from({ length: 20 }, () => `/v1/channels?sort=${r.pick(['subscribers', 'views', 'videos'])}&limit=${1 + r.int(50)}`),
  ];
  const later = randomFrom(6000);
  return { urls, firsts: Array.from({ length: first }, () => listUrl(later, catalogue)) };
}
