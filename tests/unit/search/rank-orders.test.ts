// A query of several words is ranked from its rarest word when that is cheaper (rank.ts
// rankByRarest: long lists probed for the candidates, scores kept per word and summed in the
// query's order): its rankings must be exactly those of ranking word by word in the query's order,
// as before (ids, every score to the last bit, the total), for kept and full rankings, in every kind.
import { describe, expect, it } from 'vitest';
import { seededModel } from '../support/seeded-model.ts';
import { SEARCH_KINDS } from '../../../src/search/documents.ts';
import { KEPT_MATCHES, rankFromRarest, rankWords, type Ranking } from '../../../src/search/rank.ts';
import { buildSearchIndex } from '../../../src/search/search-index.ts';
import { termsOf } from '../../../src/search/text.ts';

const model = seededModel(4000);
const index = buildSearchIndex(model);
const plainOf = (r: Ranking) => ({ ids: Array.from(r.ids), scores: Array.from(r.scores, (s) => s.toString(16)), total: r.total });

// words of titles, tags and descriptions: the commonest (found in thousands), the rarest (in one or two)
const counts = new Map<string, number>();
for (const { video } of model.orders.latest) for (const term of new Set(termsOf(`${video.title} ${video.tags.join(' ')} ${video.description}`))) counts.set(term, (counts.get(term) ?? 0) + 1);
const byCount = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([term]) => term);
const common = byCount.slice(0, 40);
const rare = byCount.slice(-400);
const middling = byCount.slice(200, 600);

let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (words: readonly string[]) => words[Math.floor(random() * words.length)]!;
const typo = (word: string) => (word.length < 4 ? word : word.slice(0, 1) + word.slice(2, 3) + word.slice(1, 2) + word.slice(3));

/** queries of 2 to 4 words, common, rare and middling, the last one cut short or misspelt at times, words repeated */
function queries(count: number): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < count; i++) {
    const length = 2 + Math.floor(random() * 3);
    const words = Array.from({ length }, () => pick([common, rare, middling][Math.floor(random() * 3)]!));
    const last = words.length - 1;
    const roll = random();
    if (roll < 0.25) words[last] = words[last]!.slice(0, 1 + Math.floor(random() * words[last]!.length));
    else if (roll < 0.35) words[last] = typo(words[last]!);
    else if (roll < 0.4) words[0] = typo(words[0]!);
    else if (roll < 0.45) words[last] = words[0]!;
    out.push(words);
  }
  return out;
}

describe('ranking from the rarest word', () => {
  it('gives exactly the rankings of ranking word by word, kept and in full, in every kind', () => {
    let fromRarest = 0;
    let compared = 0;
    for (const words of queries(1500)) {
      for (const kind of SEARCH_KINDS) {
        for (const keep of [KEPT_MATCHES, 20, Number.POSITIVE_INFINITY]) {
          const inOrder = plainOf(rankWords(index[kind], words, keep, false));
          expect(plainOf(rankWords(index[kind], words, keep)), `${kind} ${words.join(' ')} ${keep}`).toEqual(inOrder);
          const rarest = rankFromRarest(index[kind], words, keep);
          if (rarest) {
            fromRarest++;
            expect(plainOf(rarest)).toEqual(inOrder);
          }
          compared++;
        }
      }
    }
    // both ways were taken, many times each, and matches were found
    expect(fromRarest).toBeGreaterThan(compared / 10);
    expect(fromRarest).toBeLessThan(compared * 0.95);
  });

  it('is taken for a common word beside a rare one, wherever the rare one stands, and finds the same matches', () => {
    const words = [common[0]!, rare.find((w) => w.length >= 7 && rankWords(index.videos, [common[0]!, w], KEPT_MATCHES).total > 0)!];
    expect(words[1]).toBeDefined();
    for (const query of [words, [...words].reverse(), [words[0]!, words[0]!, words[1]!]]) {
      const rarest = rankFromRarest(index.videos, query, KEPT_MATCHES);
      expect(rarest, query.join(' ')).toBeDefined();
      expect(plainOf(rarest!)).toEqual(plainOf(rankWords(index.videos, query, KEPT_MATCHES, false)));
      expect(rarest!.total).toBeGreaterThan(0);
    }
  });

  it('finds nothing when a word matches nothing, and leaves no trace for the next query', () => {
    expect(rankWords(index.videos, [common[0]!, 'zzzqqqxxx'], KEPT_MATCHES).total).toBe(0);
    expect(rankWords(index.videos, ['zzzqqqxxx', common[0]!], KEPT_MATCHES).total).toBe(0);
    const words = [common[1]!, rare[0]!];
    const first = plainOf(rankWords(index.videos, words, KEPT_MATCHES));
    rankWords(index.videos, [common[2]!, common[3]!, rare[1]!], Number.POSITIVE_INFINITY);
    expect(plainOf(rankWords(index.videos, words, KEPT_MATCHES))).toEqual(first);
  });
});
