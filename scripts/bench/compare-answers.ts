// npx node scripts/bench/compare-answers.ts OLD_PORT NEW_PORT [--manifest FILE] [--lists N] [--search N]:
// compares two running servers of the same snapshot byte for byte, as a change to how answers are
// made must leave them: for each URL, each Accept-Encoding (none, gzip, br, "gzip, br"), a GET, a
// HEAD and a GET with If-None-Match of the ETag just received, the status, the body's bytes and the
// headers a client or cache reads (ETag, Content-Type, Content-Length, Content-Encoding, Vary, Link,
// Cache-Control, X-Robots-Tag, Cache-Tag). The URLs: bench:mix's whole mix and first list pages (from
// the snapshot's manifest: list pages, prerendered video and comment pages), searches, batches,
// related lists and a few refused queries. Prints each
// mismatch and the count of exchanges compared; exits 1 on any mismatch. Loopback only.
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { mixUrls } from './mix-urls.ts';
import type { Manifest } from '../../src/snapshot/manifest.ts';

const HELP = `usage: npx node scripts/bench/compare-answers.ts OLD_PORT NEW_PORT --manifest FILE [--lists N] [--search N]
--lists N: N URLs spread over bench:mix's mix and N first list pages; --search N: N searches
Compares two servers of the same snapshot (127.0.0.1:OLD_PORT, 127.0.0.1:NEW_PORT) byte for byte
over list, search, batch and related URLs × 4 encodings × GET, HEAD and conditional GET.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.length < 2) {
  console.log(HELP);
  process.exit(args.includes('--help') ? 0 : 2);
}
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : args[at + 1] ?? fallback;
};
const [oldPort, newPort] = [Number(args[0]), Number(args[1])];
if (![oldPort, newPort].every((p) => Number.isInteger(p) && p > 0 && p < 65536)) {
  console.error('compare-answers: OLD_PORT and NEW_PORT must be port numbers');
  process.exit(2);
}
const manifestFile = option('manifest', '');
if (!manifestFile) {
  console.error('compare-answers: --manifest FILE (the snapshot\'s manifest.json) is required');
  process.exit(2);
}
const lists = Math.min(5000, Number(option('lists', '400')));
const searches = Math.min(1000, Number(option('search', '100')));

const HEADERS = ['etag', 'content-type', 'content-length', 'content-encoding', 'vary', 'link', 'cache-control', 'x-robots-tag', 'cache-tag', 'keep-alive'];
const ENCODINGS = [undefined, 'gzip', 'br', 'gzip, br'];
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly body: Buffer;
}

function exchange(port: number, method: 'GET' | 'HEAD', path: string, headers: Record<string, string>): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({
        status: res.statusCode ?? 0,
        headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers[h] as string | undefined])),
        body: Buffer.concat(chunks),
      }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The URLs compared: list pages as bench:mix asks them, searches, batches, related lists, refusals. */
function urlsToCompare(): string[] {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const videoIds = Object.keys(manifest.pages).flatMap((k) => /^\/v1\/videos\/([^/?%]+)$/.exec(k)?.slice(1) ?? []);
  const mix = mixUrls(manifestFile, false, lists);
  const words = ['talk', 'python', 'data', 'pyth', 'keynote', 'django', 'web', 'learn', 'async', 'testing', 'pandas', 'scien'];
  // spread over the whole mix: list pages, then video pages, comment pages and channel lists
  const step = Math.max(1, Math.floor(mix.urls.length / lists));
  const urls = [...mix.urls.filter((_, i) => i % step === 0).slice(0, lists), ...mix.firsts];
  for (let i = 0; i < searches; i++) {
    const q = encodeURIComponent(words[i % words.length]! + (i >= words.length ? ` ${words[(i * 7) % words.length]}` : ''));
    urls.push(i % 3 === 0 ? `/v1/search?q=${q}&limit=${1 + (i % 40)}` : i % 3 === 1 ? `/v1/videos?q=${q}&sort=likes&limit=${1 + (i % 30)}` : `/v1/search?type=all&q=${q}&offset=${i % 17}`);
  }
  for (let i = 0; i < 40 && videoIds.length > 0; i++) {
    const ids = Array.from({ length: 1 + (i % 12) }, (_, k) => videoIds[(i * 131 + k * 977) % videoIds.length]!);
    urls.push(`/v1/videos/batch?ids=${ids.join(',')}${i % 5 === 0 ? ',no-such-video' : ''}`);
    urls.push(`/v1/videos/${videoIds[(i * 389) % videoIds.length]!}/related?limit=${1 + (i % 25)}&offset=${i % 4}`);
  }
  urls.push('/v1/videos?limit=0', '/v1/videos?sort=nope', '/v1/videos?offset=-1', '/v1/videos/batch?ids=', '/v1/search?q=');
  return urls;
}

const describe = (e: Exchange) => `${e.status} ${JSON.stringify(e.headers)} ${e.body.length} bytes`;

let compared = 0;
let mismatches = 0;
const urls = urlsToCompare();
for (const [n, path] of urls.entries()) {
  for (const encoding of ENCODINGS) {
    const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
    const [before, after] = await Promise.all([exchange(oldPort, 'GET', path, headers), exchange(newPort, 'GET', path, headers)]);
    const checks: [string, Exchange, Exchange][] = [['GET', before, after]];
    checks.push(['HEAD', ...await Promise.all([exchange(oldPort, 'HEAD', path, headers), exchange(newPort, 'HEAD', path, headers)])]);
    if (before.headers['etag']) {
      const conditional = { ...headers, 'if-none-match': before.headers['etag'] };
      checks.push(['conditional GET', ...await Promise.all([exchange(oldPort, 'GET', path, conditional), exchange(newPort, 'GET', path, conditional)])]);
    }
    for (const [what, a, b] of checks) {
      compared++;
      const same = a.status === b.status && a.body.equals(b.body) && HEADERS.every((h) => a.headers[h] === b.headers[h]);
      if (!same) {
        mismatches++;
        if (mismatches <= 20) console.log(`MISMATCH ${what} ${path} (${encoding ?? 'identity'}):\n  old ${describe(a)}\n  new ${describe(b)}`);
      }
    }
  }
  if ((n + 1) % 200 === 0) console.log(`compare-answers: ${n + 1} of ${urls.length} URLs (${Math.round(((n + 1) / urls.length) * 100)}%), ${compared} exchanges, ${mismatches} mismatches`);
}
agent.destroy();
console.log(`compare-answers: ${urls.length} URLs, ${compared} exchanges compared, ${mismatches} mismatches`);
process.exit(mismatches === 0 ? 0 : 1);
