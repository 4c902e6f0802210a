// The demo catalogue's text (docs/catalogue.md, "Seed"): vocabulary templates filled with the words
// of one record (seed-vocabulary.ts lists the templates and their placeholders), and the slugs and
// title case the record makers write.
import type { SeededRandom } from './seeded-random.ts';
import { WEEKDAYS, type SeedCategory } from './seed-vocabulary.ts';

/** What a record's templates talk about. */
export interface TemplateWords {
  readonly topic: string;
  readonly other: string;
  readonly year: number;
  readonly channel: string;
  readonly category: string;
  readonly name: string;
}

export const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Caches a function of a vocabulary word (a bounded set of inputs). */
function memoiseText(transform: (text: string) => string): (text: string) => string {
  const cache = new Map<string, string>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined) cache.set(text, (value = transform(text)));
    return value;
  };
}

const MINOR_WORDS = new Set(['a', 'an', 'and', 'at', 'for', 'in', 'of', 'on', 'the', 'to', 'vs', 'with']);

/** Title case for a topic inside a title: "the human brain" → "the Human Brain". */
export const toTitleCase = memoiseText((text) => text.split(' ').map((word) => (MINOR_WORDS.has(word) ? word : capitalise(word))).join(' '));

/** Lower-case ASCII letters and digits of a name: "Zoë Plays" → "zoeplays". */
export const toSlug = (text: string): string => text.normalize('NFD').replace(/[^A-Za-z0-9]/g, '').toLowerCase();
/** toSlug of a vocabulary name, cached. */
export const toNameSlug = memoiseText(toSlug);

/** Templates split into literal text (even indices) and placeholder names (odd indices). */
const templateParts = new Map<string, readonly string[]>();

/** Fills a vocabulary template (placeholders are listed in seed-vocabulary.ts). */
export function fillTemplate(random: SeededRandom, template: string, words: TemplateWords): string {
  let parts = templateParts.get(template);
  if (parts === undefined) templateParts.set(template, (parts = template.split(/\{(\w+)\}/)));
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i += 2) {
    out += fillPlaceholder(random, parts[i] ?? '', words) + (parts[i + 1] ?? '');
  }
  return out;
}

function fillPlaceholder(random: SeededRandom, name: string, words: TemplateWords): string {
  switch (name) {
    case 'topic': return words.topic;
    case 'Topic': return capitalise(words.topic);
    case 'other': return words.other;
    case 'year': return String(words.year);
    case 'channel': return words.channel;
    case 'category': return words.category.toLowerCase();
    case 'name': return words.name;
    case 'n': return String(random.int(2, 30));
    case 'time': return `${random.int(0, 24)}:${String(random.int(0, 59)).padStart(2, '0')}`;
    case 'weekday': return random.pick(WEEKDAYS);
    default: throw new Error(`seed vocabulary: unknown placeholder {${name}}`);
  }
}

/** One to `max` distinct sentences from a list, filled. */
export function fillSentences(random: SeededRandom, list: readonly string[], max: number, words: TemplateWords): string {
  const count = random.int(1, max);
  const start = random.int(0, list.length - 1);
  const step = random.int(1, list.length - 1);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(fillTemplate(random, list[(start + i * step) % list.length] ?? '', words));
  return [...new Set(out)].join(' ');
}

/** The words of one record: two different topics of its category, and who and when. */
export function drawTemplateWords(random: SeededRandom, category: SeedCategory, year: number, channel: string, name: string): TemplateWords {
  const topic = random.pick(category.topics);
  let other = random.pick(category.topics);
  if (other === topic) other = category.topics[(category.topics.indexOf(topic) + 1) % category.topics.length] ?? other;
  return { topic, other, year, channel, category: category.name, name };
}
