// The purge list covers the site's generated files too (sitemaps, Atom feeds: src/site/site-files.ts).
// They are answered from the model, not stored as pages, so each build records the ETag of every
// one in `site-files.json` (listed in the manifest, so the snapshot id covers it) and lists the
// files whose bytes changed, appeared or went since the served snapshot (docs/cdn.md, "Purging").
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { etagOf } from '../http/etag.ts';
import type { Model } from '../model/build-model.ts';
import { siteFiles } from '../site/site-files.ts';
import type { FileRecord } from './manifest.ts';

export const SITE_FILES_FILE = 'site-files.json';

export type SiteFileStamps = ReadonlyMap<string, string>;

/** Renders every site file once and records its ETag by URL path, in code-unit order of the paths. */
export function stampSiteFiles(model: Model): SiteFileStamps {
  const stamps = new Map<string, string>();
  for (const file of siteFiles(model)) stamps.set(file.key, etagOf(file.body));
  return new Map([...stamps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Writes the stamps as one JSON object and returns the file's record for the manifest. */
export function writeSiteFileStamps(dir: string, stamps: SiteFileStamps): FileRecord {
  const bytes = Buffer.from(`${JSON.stringify(Object.fromEntries(stamps))}\n`);
  writeFileSync(join(dir, SITE_FILES_FILE), bytes);
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * The stamps a snapshot recorded, or undefined when it has none (built before site files were
 * stamped) or they cannot be read: then every site file is listed as changed.
 */
export function readSiteFileStamps(dir: string | undefined): SiteFileStamps | undefined {
  if (dir === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, SITE_FILES_FILE), 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    const entries = Object.entries(parsed);
    return entries.every(([, etag]) => typeof etag === 'string') ? new Map(entries as [string, string][]) : undefined;
  } catch {
    return undefined;
  }
}

/** The paths whose file changed, appeared or went, in code-unit order. */
export function diffSiteFiles(previous: SiteFileStamps | undefined, next: SiteFileStamps): string[] {
  const changed = new Set<string>();
  for (const [key, etag] of next) if (previous?.get(key) !== etag) changed.add(key);
  if (previous) for (const key of previous.keys()) if (!next.has(key)) changed.add(key);
  return [...changed].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
