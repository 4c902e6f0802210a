// The demo catalogue's records (docs/catalogue.md, "Seed"): the same seed gives the same records,
// they pass the import validator, and they show everything the docs promise of the demo.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSeedRecords } from '../../../src/catalogue/generate-seed-records.ts';
import { CatalogueRecord, Key } from '../../../src/catalogue/records.ts';
import { SEED_REFERENCE } from '../../../src/catalogue/seed-clock.ts';
import { parseRecordLine } from '../../../src/catalogue/validate-records.ts';

type Kind = CatalogueRecord['kind'];
type Of<K extends Kind> = Extract<CatalogueRecord, { kind: K }>;

const ofKind = <K extends Kind>(records: readonly CatalogueRecord[], kind: K): Of<K>[] =>
  records.filter((r): r is Of<K> => r.kind === kind);

const generate = (videos: number, seed: number) => [...generateSeedRecords({ videos, seed })];

const durationClass = (seconds: number) => (seconds < 240 ? 'short' : seconds <= 1200 ? 'medium' : 'long');

/** The properties docs/catalogue.md promises of the demo catalogue, as a list of the missing ones. */
function missingShowcase(records: readonly CatalogueRecord[]): string[] {
  const missing: string[] = [];
  const videos = ofKind(records, 'video');
  const publicVideos = videos.filter((v) => v.privacy === 'public');
  for (const d of ['short', 'medium', 'long']) {
    if (!publicVideos.some((v) => v.duration !== undefined && durationClass(v.duration) === d)) missing.push(`public ${d} video`);
  }
  for (const f of ['3d', 'calm', 'restricted', 'captions'] as const) {
    if (!publicVideos.some((v) => v.features?.[f] === true)) missing.push(`public video with ${f}`);
  }
  for (const p of ['public', 'unlisted', 'private']) if (!videos.some((v) => v.privacy === p)) missing.push(`${p} video`);
  if (!publicVideos.some((v) => (v.sources ?? []).length > 0)) missing.push('playable public video');

  const comments = ofKind(records, 'comment');
  if (!comments.some((c) => c.state === 'held')) missing.push('held comment');
  const byVideo = Map.groupBy(comments, (c) => c.videoId);
  const busy = [...byVideo.values()].filter((list) => {
    const published = list.filter((c) => c.state === 'published');
    const publishedIds = new Set(published.map((c) => c.id));
    return published.length >= 5
      && published.some((c) => c.parentId !== undefined && publishedIds.has(c.parentId))
      && list.some((c) => c.state === 'held');
  });
  if (busy.length === 0) missing.push('video with ≥5 published comments, replies and held ones');

  const playlists = ofKind(records, 'playlist');
  for (const p of ['public', 'unlisted', 'private']) if (!playlists.some((l) => l.privacy === p)) missing.push(`${p} playlist`);
  const top10 = new Set(ofKind(records, 'channel').sort((a, b) => (b.subscribers ?? 0) - (a.subscribers ?? 0)).slice(0, 10).map((c) => c.username));
  const unlisted = new Set(videos.filter((v) => v.privacy === 'unlisted').map((v) => v.id));
  if (!playlists.some((l) => l.privacy === 'public' && top10.has(l.channel) && l.videos.some((id) => unlisted.has(id)))) {
    missing.push('unlisted video in a public playlist of a top-10 channel');
  }
  const live = ofKind(records, 'live');
  for (const s of ['live', 'upcoming', 'offline']) if (!live.some((l) => l.state === s)) missing.push(`${s} record`);
  return missing;
}

describe('generateSeedRecords', () => {
  const records = generate(2000, 42);

  it('gives identical records for the same videos and seed', () => {
    expect(JSON.stringify(generate(500, 7))).toBe(JSON.stringify(generate(500, 7)));
  });

  it('gives the catalogue it always gave for a seed: the records of 5,000 videos, seed 42, are pinned by their digest', () => {
    // A change to the generator or its record makers that moves one random draw changes every
    // record after it; this digest was taken before the seed was split into its modules.
    const digest = createHash('sha256');
    let count = 0;
    for (const record of generateSeedRecords({ videos: 5000, seed: 42 })) {
      digest.update(`${JSON.stringify(record)}\n`);
      count++;
    }
    expect({ count, digest: digest.digest('hex') }).toEqual({ count: 12_312, digest: 'cf8709655011dd318127a9879409f70dcf37b8f3e61b186120244da82816e367' });
  });

  it('gives different records for a different seed', () => {
    expect(JSON.stringify(generate(500, 8))).not.toBe(JSON.stringify(generate(500, 7)));
  });

  it('passes the import validator with no errors', () => {
    const errors = records.flatMap((r, i) => parseRecordLine(i + 1, JSON.stringify(r)).errors ?? []);
    expect(errors).toEqual([]);
  });

  it('builds records already in their parsed form, so validating a sample changes nothing', () => {
    for (const r of records) expect(CatalogueRecord.parse(r)).toEqual(r);
  });

  it('includes everything the contract promises of the demo catalogue', () => {
    expect(missingShowcase(records)).toEqual([]);
  });

  it('keeps the promises for small catalogues and other seeds', () => {
    for (const seed of [0, 1, 2, 3, 4294967295]) {
      for (const videos of [7, 60]) expect({ seed, videos, missing: missingShowcase(generate(videos, seed)) }).toEqual({ seed, videos, missing: [] });
    }
  });

  it('has about one channel per 40 videos, at least 12', () => {
    expect(ofKind(generate(100, 1), 'channel')).toHaveLength(12);
    expect(ofKind(records, 'channel')).toHaveLength(50);
    expect(ofKind(records, 'category').length).toBeGreaterThanOrEqual(8);
  });

  it('gives no picture URLs, so the service generates every picture and the demo pages load nothing from other hosts', () => {
    expect(ofKind(records, 'channel').filter((c) => c.avatarUrl !== undefined || c.bannerUrl !== undefined)).toEqual([]);
    expect(ofKind(records, 'video').filter((v) => v.thumbnailUrl !== undefined)).toEqual([]);
    expect(ofKind(records, 'comment').filter((c) => c.author.avatarUrl !== undefined)).toEqual([]);
  });

  it('points playable videos and their captions at the sample media shipped in public/media', () => {
    const paths = new Set<string>();
    for (const v of ofKind(records, 'video')) {
      for (const source of v.sources ?? []) paths.add(source.url);
      for (const track of v.captions ?? []) {
        if (v.sources !== undefined) expect(track.url, v.id).toBeDefined();
        if (track.url !== undefined) paths.add(track.url);
      }
    }
    expect(paths.size).toBeGreaterThan(3);
    for (const path of paths) {
      expect(path, 'a path on this deployment').toMatch(/^\/media\//);
      expect(existsSync(join('public', path)), `public${path} exists`).toBe(true);
    }
  });

  it('gives YouTube-like 11-character video ids', () => {
    for (const v of ofKind(records, 'video')) {
      expect(v.id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{10}$/);
      expect(Key.safeParse(v.id).success).toBe(true);
    }
  });

  it('mixes privacy about 90/6/4 and gives media to about half the videos', () => {
    const videos = ofKind(records, 'video');
    const share = (test: (v: Of<'video'>) => boolean) => videos.filter(test).length / videos.length;
    expect(share((v) => v.privacy === 'public')).toBeCloseTo(0.9, 1);
    expect(share((v) => v.privacy === 'unlisted')).toBeGreaterThan(0.03);
    expect(share((v) => v.privacy === 'private')).toBeGreaterThan(0.02);
    expect(share((v) => v.sources !== undefined)).toBeCloseTo(0.5, 1);
    expect(share((v) => v.thumbnailUrl !== undefined)).toBeLessThan(0.3);
    expect(share((v) => v.duration === undefined)).toBeGreaterThan(0);
    expect(share((v) => v.updatedAt !== undefined)).toBeGreaterThan(0);
  });

  it('gives caption tracks exactly to videos with the captions feature', () => {
    for (const v of ofKind(records, 'video')) expect(v.captions !== undefined).toBe(v.features?.captions === true);
  });

  it('draws tags from a shared vocabulary, some much more common than others', () => {
    const counts = new Map<string, number>();
    for (const v of ofKind(records, 'video')) {
      expect((v.tags ?? []).length).toBeLessThanOrEqual(8);
      for (const t of v.tags ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    const sorted = [...counts.values()].sort((a, b) => b - a);
    expect(counts.size).toBeGreaterThan(100);
    expect(sorted[0]).toBeGreaterThan(10 * (sorted[Math.floor(sorted.length / 2)] ?? 0));
  });

  it('averages one to three comments a video, with many videos having none', () => {
    const videos = ofKind(records, 'video');
    const comments = ofKind(records, 'comment');
    expect(comments.length / videos.length).toBeGreaterThan(1);
    expect(comments.length / videos.length).toBeLessThan(3);
    const commented = new Set(comments.map((c) => c.videoId));
    expect(commented.size).toBeLessThan(videos.length * 0.7);
  });

  it('dates everything before the reference, and schedules upcoming streams after it', () => {
    const reference = SEED_REFERENCE;
    for (const v of ofKind(records, 'video')) {
      expect(v.publishedAt >= '2019-01-01T00:00:00Z' && v.publishedAt < reference).toBe(true);
      if (v.updatedAt !== undefined) expect(v.updatedAt >= v.publishedAt).toBe(true);
    }
    for (const l of ofKind(records, 'live')) {
      if (l.state === 'live') expect(l.startedAt !== undefined && l.viewers !== undefined).toBe(true);
      if (l.state === 'upcoming') expect((l.scheduledFor ?? '') > reference).toBe(true);
    }
    const alerts = ofKind(records, 'alert');
    expect(alerts.some((a) => a.endsAt === undefined)).toBe(true);
    expect(alerts.some((a) => a.endsAt !== undefined)).toBe(true);
  });
});

