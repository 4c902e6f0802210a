// npx node scripts/bench/compare-searches.ts OLD_PORT NEW_PORT CATALOGUE [COUNT] [SEED]: compares two running
// servers of the same snapshot byte for byte on COUNT (default 3,000) searches of bench:search's
// "every query new" stream (scripts/bench/search-queries.ts, the same seed), as bench:search mixes
// them (/v1/search, /v1/videos?q=, /v1/search?type=all), each third one paged past the kept matches
// (offset 190 to 250: ranked in full) and each fifth asked with gzip: the status, the body's bytes
// and every header but Date and RateLimit (each server's own count). SEED (default 11, the
// stream's) picks other queries. Prints each mismatch and the count compared; exits 1 on any mismatch.
// (scripts/bench/compare-answers.ts compares the whole mix of URLs; this one the searches, many.)
import { Agent, request } from 'node:http';
import { searchQueries } from './search-queries.ts';

const [oldPort, newPort, catalogue, countArg, seedArg] = process.argv.slice(2);
if (!oldPort || !newPort || !catalogue) {
  console.error('usage: npx node scripts/bench/compare-searches.ts OLD_PORT NEW_PORT CATALOGUE [COUNT] [SEED]');
  process.exit(2);
}
const count = Number(countArg ?? 3000);
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

interface Exchange { readonly status: number; readonly headers: string; readonly body: Buffer }

function exchange(port: string, path: string, headers: Record<string, string>): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const kept = Object.entries(res.headers).filter(([name]) => name !== 'date' && name !== 'ratelimit').sort(([a], [b]) => (a < b ? -1 : 1));
        resolve({ status: res.statusCode ?? 0, headers: JSON.stringify(kept), body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const queries = searchQueries(catalogue, count, Number(seedArg ?? 11));
let differ = 0;
let compared = 0;
let matched = 0;
for (let i = 0; i < queries.length; i++) {
  const q = encodeURIComponent(queries[i]!);
  const deep = i % 3 === 2 ? `&offset=${190 + (i % 61)}` : '';
  const path = i % 10 < 7 ? `/v1/search?q=${q}${deep}` : i % 10 < 9 ? `/v1/videos?q=${q}${deep}` : `/v1/search?type=all&q=${q}${deep}`;
  const headers: Record<string, string> = i % 5 === 0 ? { 'accept-encoding': 'gzip' } : {};
  const [a, b] = await Promise.all([exchange(oldPort, path, headers), exchange(newPort, path, headers)]);
  compared++;
  if (a.status === 200 && !a.body.includes('"total":0')) matched++;
  if (a.status !== b.status || a.headers !== b.headers || !a.body.equals(b.body)) {
    differ++;
    if (differ <= 10) console.log(`DIFFERS ${path}: ${a.status} ${a.body.length} bytes vs ${b.status} ${b.body.length} bytes${a.headers === b.headers ? '' : `\n  ${a.headers}\n  ${b.headers}`}`);
  }
}
console.log(`compare-searches: ${compared} searches compared (${matched} answered 200 with matches), ${differ} differ`);
agent.destroy();
process.exit(differ === 0 ? 0 : 1);
