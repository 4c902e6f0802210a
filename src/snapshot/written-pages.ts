// The pages a build wrote, as the manifest, the purge list and the static files read them
// (page-writer.ts PageWriter.entries): the pages taken from the served snapshot in their places
// are held by their page numbers in the served page table (a byte a page), not as a key string and
// an entry object each; every other page (rendered, copied into a shard that is written, or taken
// in place in a shard that was then not linked) is an entry in a map by key. A small rebuild
// takes nearly all of its 310,000 pages in place, so it keeps a few thousand entries
// (docs/architecture.md, "Incremental builds").
import type { PageEntry } from './manifest.ts';
import type { PageTable } from './page-table.ts';

/** The value of a page taken in place in WrittenPages' `taken` (page-writer.ts keeps others there too). */
export const TAKEN = 1;

export class WrittenPages implements ReadonlyMap<string, PageEntry> {
  /** the entries made for pages taken in place, when asked (carried: page-writer.ts carriesPreviousEtag) */
  readonly #made = new WeakSet<PageEntry>();

  /**
   * @param others every page not taken in place, by key
   * @param served the served page table the pages taken in place are numbered in
   * @param taken a byte a page of `served`: TAKEN for a page taken in place (its key is not in `others`)
   * @param count how many of `taken` are TAKEN
   */
  readonly others: ReadonlyMap<string, PageEntry>;
  readonly served: PageTable | undefined;
  readonly taken: Uint8Array;
  readonly count: () => number;

  constructor(others: ReadonlyMap<string, PageEntry>, served: PageTable | undefined, taken: Uint8Array, count: () => number) {
    this.others = others;
    this.served = served;
    this.taken = taken;
    this.count = count;
  }

  /** how many pages are held by their page number in `served` */
  get takenCount(): number {
    return this.count();
  }

  get size(): number {
    return this.others.size + this.count();
  }

  /** Whether `entry` was made here for a page taken in place (its ETag is the served page's). */
  madeForTaken(entry: PageEntry): boolean {
    return this.#made.has(entry);
  }

  #takenIndex(key: string): number {
    if (this.served === undefined || this.count() === 0) return -1;
    const n = this.served.indexOf(key);
    return n !== -1 && this.taken[n] === TAKEN ? n : -1;
  }

  #entry(n: number): PageEntry {
    const entry = this.served!.entryAt(n);
    this.#made.add(entry);
    return entry;
  }

  get(key: string): PageEntry | undefined {
    const other = this.others.get(key);
    if (other !== undefined) return other;
    const n = this.#takenIndex(key);
    return n === -1 ? undefined : this.#entry(n);
  }

  has(key: string): boolean {
    return this.others.has(key) || this.#takenIndex(key) !== -1;
  }

  *#takenNumbers(): Generator<number> {
    if (this.count() === 0) return;
    for (let n = 0; n < this.taken.length; n++) if (this.taken[n] === TAKEN) yield n;
  }

  *keys(): MapIterator<string> {
    yield* this.others.keys();
    for (const n of this.#takenNumbers()) yield this.served!.keyAt(n);
  }

  *values(): MapIterator<PageEntry> {
    yield* this.others.values();
    for (const n of this.#takenNumbers()) yield this.#entry(n);
  }

  *entries(): MapIterator<[string, PageEntry]> {
    yield* this.others.entries();
    for (const n of this.#takenNumbers()) yield [this.served!.keyAt(n), this.#entry(n)];
  }

  [Symbol.iterator](): MapIterator<[string, PageEntry]> {
    return this.entries();
  }

  forEach(callback: (value: PageEntry, key: string, map: ReadonlyMap<string, PageEntry>) => void, thisArg?: unknown): void {
    for (const [key, entry] of this.entries()) callback.call(thisArg, entry, key, this);
  }
}
