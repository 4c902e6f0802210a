// The demo catalogue's ids (docs/catalogue.md, "Seed"): YouTube-like and random-looking, yet strictly
// ascending in the order they are made, so every B-tree keyed by them is written append-only and a
// million-video seed does not slow down as the file outgrows the page cache.
import { hash32 } from './seeded-random.ts';

/** Base64url's 64 characters in ASCII order, so keys compare (bytewise) like the numbers they spell. */
const DIGITS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** The same without '-', for the head's first character (a key may not start with '-'). */
const LEADING = DIGITS.slice(1);
/** How many values a 5-character head spells: 63 choices of its first character, 64 of the others. */
const HEAD_RANGE = 63 * 64 ** 4;

/** One kind of id: its prefix, length and how many of them to spread. */
export interface KeyLayout {
  readonly prefix: string;
  /** Characters after the prefix; the first 5 are the ordered head, the rest random. */
  readonly length: number;
  /** How many keys the head spreads evenly; later ones follow densely (so a guess may be low). */
  readonly capacity: number;
  /** Mixed into the hash, so each kind of id (and each seed) looks different. */
  readonly salt: number;
}

/**
 * The `index`-th key of a layout. Key i's 5-character head is drawn within its own stratum of 7/8
 * of the head range (the last 1/8 takes indices past `capacity`); the tail is hashed from the index.
 */
export function makeOrderedKey(index: number, layout: KeyLayout): string {
  const spread = Math.floor((HEAD_RANGE * 7) / 8);
  const step = spread / layout.capacity;
  let hash = hash32(index + layout.salt);
  let head: number;
  if (index < layout.capacity) {
    const lower = Math.floor(index * step);
    head = lower + Math.floor((hash / 4294967296) * (Math.floor((index + 1) * step) - lower));
  } else {
    head = spread + (index - layout.capacity);
    if (head >= HEAD_RANGE) throw new Error(`seed: more than ${layout.capacity} keys with prefix "${layout.prefix}"`);
  }
  const length = layout.prefix.length + layout.length;
  let key = layout.prefix + LEADING.charAt(Math.floor(head / 64 ** 4));
  for (let power = 64 ** 3; power >= 1; power /= 64) key += DIGITS.charAt(Math.floor(head / power) % 64);
  while (key.length < length) {
    hash = hash32(hash + 1);
    for (let i = 0, bits = hash; i < 5 && key.length < length; i++, bits >>>= 6) key += DIGITS.charAt(bits & 63);
  }
  return key;
}
