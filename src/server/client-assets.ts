// The built app's static files (dist/app/client: `public/` as copied by astro build, Astro's
// hashed bundles under /_astro, and what scripts/build-sdk.ts and build-openapi.ts write): the
// browser SDK, the API description, the player's script, the sample media and caption files. Read into memory once at start, each
// with a strong ETag and, for text, gzip and brotli made once. Range requests get 206 answers, as
// media elements need for seeking.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ProblemError } from '../api/problems.ts';
import { CACHE_CONTROL, type Rendered } from '../api/respond.ts';
import { negotiate } from '../http/negotiate.ts';
import { etagOf } from '../http/etag.ts';

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  // /sdk.d.ts, the SDK's TypeScript declarations (docs/embeds.md): text to read or save
  '.ts': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.vtt': 'text/vtt; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.js', '.mjs', '.ts', '.css', '.json', '.yaml', '.map', '.vtt', '.svg', '.txt']);
/** Astro's bundles carry a content hash in their names: they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface ClientAsset {
  readonly path: string;
  readonly type: string;
  readonly body: Buffer;
  readonly br: Buffer | undefined;
  readonly gzip: Buffer | undefined;
  readonly etag: string;
  readonly cacheControl: string;
}

export type ClientAssets = ReadonlyMap<string, ClientAsset>;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Every file of a known type under `dir`, by URL path; none when the app has not been built. */
export function loadClientAssets(dir: string): ClientAssets {
  const assets = new Map<string, ClientAsset>();
  if (!existsSync(dir)) return assets;
  for (const file of filesUnder(dir)) {
    const ext = extname(file);
    const type = TYPES[ext];
    if (type === undefined) continue;
    const path = `/${relative(dir, file).split(sep).join('/')}`;
    const body = readFileSync(file);
    const compress = COMPRESSIBLE.has(ext) && body.length > 256;
    assets.set(path, {
      path, type, body,
      br: compress ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }) : undefined,
      gzip: compress ? gzipSync(body, { level: 9 }) : undefined,
      etag: etagOf(body),
      cacheControl: path.startsWith('/_astro/') ? IMMUTABLE : CACHE_CONTROL.snapshot,
    });
  }
  return assets;
}

/**
 * The one byte range of a `Range` header, `'unsatisfiable'` when it starts past the end, or
 * undefined to send the whole body (no header, several ranges, another unit, or an invalid one,
 * which RFC 9110 §14.2 says to ignore).
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined; // several ranges or another unit: whole body
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1) };
}

/** Sends a client asset; a range past its end is a 416 problem (`problem`, from the caller, knows the deployment's URLs). */
export function serveClientAsset(req: IncomingMessage, res: ServerResponse, asset: ClientAsset, problem: (error: ProblemError) => Rendered): void {
  const head = req.method === 'HEAD';
  const common: Record<string, string> = { 'cache-control': asset.cacheControl, 'accept-ranges': 'bytes' };
  if (asset.br || asset.gzip) common['vary'] = 'Accept-Encoding';
  const chosen = negotiate({ identity: asset.body, br: asset.br, gzip: asset.gzip }, asset.etag, req.headers['accept-encoding'], req.headers['if-none-match'], false);
  if (chosen.notModified) {
    res.writeHead(304, { ...common, etag: chosen.etag }).end();
    return;
  }
  // A range is of the identity bytes, and only of the representation the client already has.
  const ifRange = req.headers['if-range'];
  const range = ifRange === undefined || ifRange === asset.etag ? byteRange(req.headers['range'], asset.body.length) : undefined;
  if (range === 'unsatisfiable') {
    const rendered = problem(new ProblemError('range-not-satisfiable', `The range asked for starts past the end of ${asset.path} (${asset.body.length} bytes).`));
    res.writeHead(416, { ...common, ...rendered.headers, 'content-range': `bytes */${asset.body.length}`, 'content-length': rendered.body.length });
    res.end(head ? undefined : rendered.body);
    return;
  }
  if (range !== undefined) {
    const part = asset.body.subarray(range.start, range.end + 1);
    res.writeHead(206, {
      ...common, etag: asset.etag, 'content-type': asset.type, 'content-length': part.length,
      'content-range': `bytes ${range.start}-${range.end}/${asset.body.length}`,
    });
    res.end(head ? undefined : part);
    return;
  }
  const headers: Record<string, string | number> = { ...common, etag: chosen.etag, 'content-type': asset.type, 'content-length': chosen.body.length };
  if (chosen.encoding) headers['content-encoding'] = chosen.encoding;
  res.writeHead(200, headers);
  res.end(head ? undefined : chosen.body);
}
