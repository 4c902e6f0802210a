// Shared builders for unit tests: public catalogue records (what read-catalogue.ts produces), raw
// import records (what an NDJSON line holds), and temporary directories removed after each test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Catalogue } from '../../../src/catalogue/open-catalogue.ts';
import { CatalogueRecord } from '../../../src/catalogue/records.ts';
import { createRecordWriter } from '../../../src/catalogue/write-records.ts';
import { buildModel, deriveCatalogue, type Model } from '../../../src/model/build-model.ts';
import type {
  PublicCatalogue, PublicCategory, PublicChannel, PublicComment, PublicLiveStream, PublicPlaylist, PublicVideo,
} from '../../../src/catalogue/public-catalogue.ts';

export const BASE_URL = 'https://videos.example.test';

export const NO_FEATURES = { '3d': false, calm: false, restricted: false, captions: false } as const;

export function channel(username: string, over: Partial<PublicChannel> = {}): PublicChannel {
  return { username, displayName: `Channel ${username}`, description: '', subscribers: 0, ...over };
}

export function category(id: string, name: string = id): PublicCategory {
  return { id, name };
}

export function video(id: string, over: Partial<PublicVideo> = {}): PublicVideo {
  return {
    id,
    channel: 'alice',
    title: `Video ${id}`,
    tags: [],
    views: 0,
    likes: 0,
    publishedAt: '2026-01-01T00:00:00Z',
    privacy: 'public',
    features: { ...NO_FEATURES },
    sources: [],
    captions: [],
    ...over,
  };
}

export function comment(id: string, videoId: string, over: Partial<PublicComment> = {}): PublicComment {
  return {
    id,
    videoId,
    parentId: null,
    text: `Comment ${id}`,
    publishedAt: '2026-01-02T00:00:00Z',
    author: { displayName: `Viewer ${id}` },
    likes: 0,
    ...over,
  };
}

export function playlist(id: string, videoIds: readonly string[], over: Partial<PublicPlaylist> = {}): PublicPlaylist {
  return { id, channel: 'alice', title: `Playlist ${id}`, description: '', privacy: 'public', videoIds, ...over };
}

export function liveStream(channel: string, state: PublicLiveStream['state'], over: Partial<PublicLiveStream> = {}): PublicLiveStream {
  return { channel, state, title: `Stream of ${channel}`, ...over };
}

export function catalogueOf(parts: Partial<PublicCatalogue>): PublicCatalogue {
  return {
    categories: parts.categories ?? [],
    channels: parts.channels ?? [channel('alice')],
    videos: parts.videos ?? [],
    playlists: parts.playlists ?? [],
    comments: parts.comments ?? [],
    live: parts.live ?? [],
  };
}

/** The model the build would make of a catalogue: derived data computed, then indexed. */
export function modelOf(catalogue: PublicCatalogue, baseUrl: string = BASE_URL): Model {
  return buildModel(catalogue, deriveCatalogue(catalogue), baseUrl);
}

/** Compares ids in plain string (code unit) order, the tie-break of every order. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// ---- raw import records (one NDJSON line each) ----

export type Raw = Record<string, unknown>;

export const rawCategory = (id: string, name: string = id): Raw => ({ kind: 'category', id, name });
export const rawChannel = (username: string, over: Raw = {}): Raw => ({ kind: 'channel', username, displayName: `Channel ${username}`, ...over });
export const rawVideo = (id: string, over: Raw = {}): Raw => ({
  kind: 'video', id, channel: 'alice', title: `Video ${id}`, publishedAt: '2026-01-01T00:00:00Z', privacy: 'public', ...over,
});
export const rawPlaylist = (id: string, videos: string[], over: Raw = {}): Raw => ({
  kind: 'playlist', id, channel: 'alice', title: `Playlist ${id}`, privacy: 'public', videos, ...over,
});
export const rawComment = (id: string, videoId: string, over: Raw = {}): Raw => ({
  kind: 'comment', id, videoId, text: `Comment ${id}`, publishedAt: '2026-01-02T00:00:00Z', author: { displayName: `Viewer ${id}` }, ...over,
});

/** Parses raw records as the import does and writes them in one transaction. */
export function writeRecords(db: Catalogue, raws: readonly Raw[]): void {
  const write = createRecordWriter(db);
  const records = raws.map((raw) => CatalogueRecord.parse(raw));
  db.transaction(() => { for (const r of records) write(r); })();
}

export const ndjson = (raws: readonly (Raw | string)[]): string =>
  raws.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

// ---- temporary directories ----

export interface TempDirs {
  make(): string;
  cleanup(): void;
}

/** Temporary directories under os.tmpdir(); call cleanup() in afterEach. */
export function tempDirs(): TempDirs {
  const made: string[] = [];
  return {
    make() {
      const dir = mkdtempSync(join(tmpdir(), 'vpa-unit-'));
      made.push(dir);
      return dir;
    },
    cleanup() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function writeNdjsonFile(dir: string, name: string, raws: readonly (Raw | string)[], gzip = false): string {
  const file = join(dir, name);
  const text = ndjson(raws);
  writeFileSync(file, gzip ? gzipSync(text) : text);
  return file;
}

/** A small deterministic PRNG (mulberry32) for fuzz-style tests that must be reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
