// npx node scripts/bench/rank-orders.ts [DIR] [COUNT]: ranks COUNT (default 4,000) distinct queries of
// bench:search's "every query new" stream on the snapshot in DIR (default /tmp/s100k) twice in every
// kind, from the rarest word (rank.ts rankByRarest, what the server does) and word by word in the
// query's order (rankInOrder, how rankings were made before), checks that the two agree to the last
// bit (ids, scores, totals, for the kept matches and in full) and prints each way's CPU time
// (process.threadCpuUsage), in alternation (docs/performance.md,
// "Search at a million videos: several words from the rarest, videos found again").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { KEPT_MATCHES, rankWords, type Ranking } from '../../src/search/rank.ts';
import { loadSearchIndex } from '../../src/search/search-index.ts';
import { SEARCH_KINDS } from '../../src/search/documents.ts';
import { termsOf } from '../../src/search/text.ts';
import { searchQueries } from './search-queries.ts';

const args = process.argv.slice(2);
const dir = args[0] ?? '/tmp/s100k';
const count = Number(args[1] ?? 4000);
const index = loadSearchIndex(readFileSync(join(dir, 'dist', 'snapshots', 'current', 'search.json')));
const seen = new Set<string>();
const queries = searchQueries(join(dir, 'catalogue.db'), count * 3, 11).map(termsOf).filter((terms) => {
  const key = terms.join(' ');
  if (terms.length === 0 || seen.has(key)) return false;
  seen.add(key);
  return true;
}).slice(0, count);

const cpu = () => {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
};
const same = (a: Ranking, b: Ranking) => a.total === b.total && a.ids.length === b.ids.length
  && a.ids.every((id, i) => id === b.ids[i]) && a.scores.every((s, i) => Object.is(s, b.scores[i]));

let differ = 0;
let compared = 0;
const spent = { rarest: 0, inOrder: 0 };
for (let round = 0; round < 2; round++) {
  for (const kind of SEARCH_KINDS) {
    for (const terms of queries) {
      for (const keep of [KEPT_MATCHES, Number.POSITIVE_INFINITY]) {
        // alternate which goes first, so neither always finds the caches and the CPU warm
        const ways = (round + compared) % 2 === 0 ? [true, false] : [false, true];
        const got = new Map<boolean, Ranking>();
        for (const byRarest of ways) {
          const start = cpu();
          got.set(byRarest, rankWords(index[kind], terms, keep, byRarest));
          if (round === 1) spent[byRarest ? 'rarest' : 'inOrder'] += cpu() - start;
        }
        compared++;
        if (!same(got.get(true)!, got.get(false)!)) {
          differ++;
          if (differ <= 10) console.log(`DIFFERS: ${kind} ${JSON.stringify(terms.join(' '))} keep ${keep}`);
        }
      }
    }
  }
}
console.log(`${compared} rankings compared (${queries.length} queries × 3 kinds × kept and full × 2 rounds): ${differ} differ`);
console.log(`CPU, second round: from the rarest word ${spent.rarest.toFixed(0)} ms, in the query's order ${spent.inOrder.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`);
process.exit(differ === 0 ? 0 : 1);
