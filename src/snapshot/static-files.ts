// A snapshot's prerendered pages as plain files (docs/cdn.md), for nginx, a static host or an
// object store behind a CDN: `static/pages/<path>@<canonical query>.json` (layout.ts pageFile),
// with `.gz` and `.br` beside it when the page has those variants. Every file's mtime is the
// page's content stamp, so nginx's ETag (`"<mtime>-<size>"` in hex) is the origin's ETag of that
// representation. Also written: `_headers` (the per-file headers, in the format Netlify and
// Cloudflare Pages read) and nginx maps of the headers that vary per page (Link, X-Robots-Tag).
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_CONTROL, JSON_TYPE } from '../api/respond.ts';
import { CORS_HEADERS } from '../http/cors.ts';

import { pageFile, pageShardsOf } from './layout.ts';
import type { Manifest, PageEntry } from './manifest.ts';
import { openDiskSources } from './page-files.ts';
import { etagFor, stampOfEtag } from '../http/etag.ts';

export const STATIC_DIR = 'static';
/** nginx `map` bodies, keyed by file path under `static/`: `"/pages/...json" "value";` */
export const NGINX_MAPS = { link: 'nginx-link.map', noindex: 'nginx-noindex.map' } as const;

/** The content stamp in a `"<stamp>-<length>"` ETag: the mtime the page's files get. */

/** The headers every page file is served with (those of the origin's static answers). */
export const FILE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': JSON_TYPE,
  'Cache-Control': CACHE_CONTROL.snapshot,
  'Access-Control-Allow-Origin': CORS_HEADERS['access-control-allow-origin']!,
  'Access-Control-Expose-Headers': CORS_HEADERS['access-control-expose-headers']!,
};

/** An nginx map entry's quoted string. */
const quoted = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * Writes `<snapshot>/static` from the snapshot's page files (into a temporary folder renamed at
 * the end, so it is whole or absent). Returns the number of files written.
 */
export function writeStaticFiles(snapshotDir: string, manifest: Manifest, onProgress: (message: string) => void = () => {}): number {
  const target = join(snapshotDir, STATIC_DIR);
  const tmp = `${target}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  // every shard's page files, through the one checked reader (page-files.ts)
  const pageFiles = openDiskSources(snapshotDir, pageShardsOf(manifest.files));
  const sources = { read: (kind: keyof typeof pageFiles, range: PageEntry["body"]) => pageFiles[kind].read(range), close: () => { for (const source of Object.values(pageFiles)) source.close(); } };
  const headers: string[] = ['/pages/*', ...Object.entries(FILE_HEADERS).map(([name, value]) => `  ${name}: ${value}`), ''];
  const links: string[] = [];
  const noindex: string[] = [];
  const made = new Set<string>();
  let files = 0;
  try {
    const keys = Object.keys(manifest.pages);
    for (const [i, key] of keys.entries()) {
      const page: PageEntry = manifest.pages[key]!;
      const path = `/${pageFile(key)}`;
      const file = join(tmp, path);
      const folder = dirname(file);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      const stamp = stampOfEtag(page.etag);
      const write = (name: string, bytes: Buffer) => {
        writeFileSync(name, bytes);
        utimesSync(name, stamp, stamp);
        files++;
      };
      write(file, sources.read('body', page.body));
      if (page.gzip) write(`${file}.gz`, sources.read('gzip', page.gzip));
      if (page.br) write(`${file}.br`, sources.read('br', page.br));
      headers.push(path, `  ETag: ${page.etag}`);
      if (page.link) {
        headers.push(`  Link: ${page.link}`);
        links.push(`${quoted(path)} ${quoted(page.link)};`);
      }
      if (page.noindex) {
        headers.push('  X-Robots-Tag: noindex');
        noindex.push(`${quoted(path)} "noindex";`);
      }
      if (page.gzip) headers.push(`${path}.gz`, `  ETag: ${etagFor(page.etag, page.gzip[1])}`, '  Content-Encoding: gzip');
      if (page.br) headers.push(`${path}.br`, `  ETag: ${etagFor(page.etag, page.br[1])}`, '  Content-Encoding: br');
      if ((i + 1) % 50_000 === 0) onProgress(`static files: ${i + 1}/${keys.length} pages`);
    }
    writeFileSync(join(tmp, '_headers'), `${headers.join('\n')}\n`);
    writeFileSync(join(tmp, NGINX_MAPS.link), `${links.join('\n')}\n`);
    writeFileSync(join(tmp, NGINX_MAPS.noindex), `${noindex.join('\n')}\n`);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  } finally {
    sources.close();
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  return files;
}
