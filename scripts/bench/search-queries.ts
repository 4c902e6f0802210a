// Realistic search queries for the search benchmark, drawn from a catalogue's public titles, tags
// and channel names: one to three words (40/40/20), the last word cut to a 2–5 letter prefix in 30%
// (a user still typing), one letter changed in 10% (a typo). Deterministic for a seed.
import { openCatalogue } from '../../src/catalogue/open-catalogue.ts';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const wordsOf = (text: string) => text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];

export function searchQueries(catalogue: string, count: number, seed = 7): string[] {
  const db = openCatalogue(catalogue, { readonly: true });
  let phrases: string[][];
  try {
    const titles = db.prepare("SELECT title FROM videos WHERE privacy = 'public' ORDER BY id").pluck().all() as string[];
    const tags = db.prepare("SELECT tag FROM video_tags t JOIN videos v ON v.id = t.video_id WHERE v.privacy = 'public' ORDER BY t.video_id, t.position LIMIT 200000").pluck().all() as string[];
    const channels = db.prepare('SELECT display_name FROM channels ORDER BY username').pluck().all() as string[];
    phrases = [...titles, ...tags, ...channels].map(wordsOf).filter((w) => w.length > 0);
  } finally {
    db.close();
  }
  const r = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const phrase = pick(phrases);
    const size = Math.min(phrase.length, r() < 0.4 ? 1 : r() < 0.67 ? 2 : 3);
    const start = Math.floor(r() * (phrase.length - size + 1));
    const words = phrase.slice(start, start + size);
    if (r() < 0.1) {
      const w = words.findIndex((x) => x.length >= 5);
      if (w !== -1) {
        const word = words[w]!;
        const at = 1 + Math.floor(r() * (word.length - 1));
        words[w] = word.slice(0, at) + String.fromCharCode(97 + Math.floor(r() * 26)) + word.slice(at + 1);
      }
    }
    if (r() < 0.3) {
      const last = words[words.length - 1]!;
      words[words.length - 1] = last.slice(0, Math.min(last.length, 2 + Math.floor(r() * 4)));
    }
    queries.push(words.join(' '));
  }
  return queries;
}
