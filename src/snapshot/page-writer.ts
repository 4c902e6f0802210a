// Appends prerendered pages to a snapshot, each to its shard (page-shards.ts): identity bodies to
// the shard's pages-NNN.bin, their br and gzip variants (compressed on worker threads) to
// pages-NNN.br.bin and pages-NNN.gz.bin, each file in page order so the output never depends on
// timing. A file per page would cost ~60 µs of file-system time each here and dominate the build;
// a few sequential files a shard cost almost nothing. Each range carries the CRC-32 of its bytes
// and its shard, and each file its size and SHA-256, for the manifest (manifest.ts), so the server
// can verify what it serves. A page whose bytes are exactly those of the same URL's page in the
// previous snapshot (built by the same code, previous-snapshot.ts) takes that page's variants from
// the previous page files, read by range and checked, instead of being compressed again; they are
// appended at once unless a page of the same shard waits for its variants, then go through the
// same ordered queue behind it, so each shard's files stay in page order. Pages copied unrendered
// that follow each other in a previous shard's files are appended as a run (one read a file, each
// page's CRC-32 checked, one append a file: Run). A shard whose pages are all the
// previous snapshot's, in their places, is not written at all: its previous files are hard-linked
// once checked whole (shard-check.ts; docs/architecture.md, "Incremental builds").
// The writer keeps no buffer it is given: bytes are copied into each file's own buffer when
// appended, and into the compress pool's arena when they wait for their variants, so no page's
// buffer outlives the page (docs/architecture.md, "Buffers of the pages phase").
import { closeSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MIN_COMPRESSIBLE } from '../http/encoding.ts';
import type { Rendered } from '../api/respond.ts';
import { createCompressPool, type Variants } from './compress-pool.ts';
import { PAGE_KINDS, pageFileName, type PageKind } from './layout.ts';
import type { FileRecord, PageEntry, Range } from './manifest.ts';
import { createPageFileSinks, type PageFileSinks } from './page-file-sinks.ts';
import { checksumOf, PageReadError, readExactlyInto } from './page-files.ts';
import { shardOf } from './page-shards.ts';
import { pageTableOf, type PageTable } from './page-table.ts';
import type { PreviousPageFiles } from './previous-snapshot.ts';
import { startShardCheck, type ShardCheck } from './shard-check.ts';
import { TAKEN, WrittenPages } from './written-pages.ts';
import { FollowedStamps } from './file-stamps.ts';

const MAX_PENDING_BATCHES = 8;

type MutableEntry = { -readonly [K in keyof PageEntry]: PageEntry[K] };
/** the CRC-32 of a page's br and gzip variants, when known (read from the previous page files and checked) */
type Checksums = readonly [number | undefined, number | undefined];

/** Bytes a page file holds before it writes them (its own buffer, made once). */
const FILE_BUFFER_BYTES = 64 << 10;

type AppendOnly = ReturnType<typeof appendOnly>;

/**
 * A page file of one shard written in order: appended bytes are copied into the file's own
 * buffer (FILE_BUFFER_BYTES, made at the first append and reused), which is handed to the sinks
 * (copied, then hashed and written on their worker: page-file-sinks.ts) when full; bytes that
 * would not fit an empty buffer are handed over at once. An append keeps nothing of what it is
 * given, so a page's bytes are garbage once appended (docs/architecture.md, "Buffers of the pages
 * phase").
 */
function appendOnly(path: string, shard: number, sinks: PageFileSinks) {
  const fd = openSync(path, 'w');
  let open = true;
  let buffer: Buffer | undefined;
  let held = 0;
  let offset = 0;
  const file = {
    /** Appends a copy of `data`; its range, with `checksum` when it is known (a copied page's, verified when read). */
    append(data: Buffer, checksum: number = checksumOf(data)): Range {
      return [file.appendBytes(data), data.length, checksum, shard];
    },
    /** Appends a copy of `data` (a page's bytes, or a run of pages': Run); the offset it starts at. */
    appendBytes(data: Buffer): number {
      const at = offset;
      offset += data.length;
      if (held + data.length > FILE_BUFFER_BYTES) file.flush();
      if (data.length >= FILE_BUFFER_BYTES) {
        sinks.write(fd, data);
      } else {
        // zero-filled once: no byte of it is written before a page's bytes are copied over it
        (buffer ??= Buffer.alloc(FILE_BUFFER_BYTES)).set(data, held);
        held += data.length;
      }
      return at;
    },
    flush() {
      if (held === 0) return;
      sinks.write(fd, buffer!.subarray(0, held));
      held = 0;
    },
    /** Hands over what is held and ends the file: it is written once the sinks finish (then `close`). */
    end() {
      file.flush();
      sinks.end(fd);
    },
    /** Closes the file ended and written (`records`: the sinks' records by descriptor); its size and SHA-256. */
    close(records: ReadonlyMap<number, FileRecord>): FileRecord {
      open = false;
      closeSync(fd);
      const record = records.get(fd);
      if (record?.size !== offset) throw new Error(`${path}: ${record?.size ?? 'no'} bytes written of the ${offset} appended`);
      return record;
    },
    /** Closes the file, written or not (after a failure, once the sinks are stopped). */
    abandon() {
      if (open) closeSync(fd);
      open = false;
    },
  };
  return file;
}

/** The previous snapshot's pages and page files, when its variants may be reused. */
export interface ReusablePages {
  readonly pages: ReadonlyMap<string, PageEntry>;
  readonly files: PreviousPageFiles;
}

export interface PageCounts {
  /** pages whose bytes are the previous snapshot's (their variants were copied, not compressed) */
  reused: number;
  /** pages compressed on the workers */
  compressed: number;
  /** of the reused pages, those not even rendered: their inputs were the previous snapshot's (page-inputs.ts) */
  copied: number;
  /** shards whose files were hard-linked from the previous snapshot's */
  linked: number;
  /** of the shards that could have been linked, those copied instead (a link failed, or a file did not match its manifest) */
  unlinked: number;
}

/** Renders a page again by its key (a page taken from the previous snapshot whose bytes turned out unreadable). */
export type RenderAgain = (key: string) => Rendered;

export interface PageWriter {
  write(key: string, rendered: Rendered): void;
  /**
   * Appends the previous snapshot's page `key` as it was (bytes, variants, headers), without
   * rendering it; false when it cannot be read from the previous page files (render it instead).
   * A page that keeps its place in its shard is not even read: the shard is hard-linked at the
   * end when all its pages did; else its pages are read then, and `renderAgain` renders those
   * whose bytes cannot be read intact.
   */
  copy(key: string, renderAgain?: RenderAgain): boolean;
  /** whether `body` is exactly the bytes of the previous snapshot's page `key` (read and compared) */
  isPrevious(key: string, body: Buffer): boolean;
  /** When too many pages are queued for compression, compresses some on this thread, then waits (keeps memory bounded). */
  keepUp(): Promise<void>;
  close(): Promise<void>;
  /** Stops the workers without finishing (after a failure). */
  abort(): Promise<void>;
  /** every page written or taken, by key (the pages taken in place held by their served page numbers: written-pages.ts) */
  readonly entries: WrittenPages;
  /**
   * Whether `entry` (one of `entries`) is a page taken from the previous snapshot as it was, so its
   * ETag is that of the previous page of the same key (the purge list needs no look-up for it).
   */
  carriesPreviousEtag(entry: PageEntry): boolean;
  readonly bytes: { identity: number; br: number; gzip: number };
  readonly counts: Readonly<PageCounts>;
  /** why the previous snapshot's page files stopped being read from (a read that failed its check, or a shard not linked) */
  readonly reuseStopped: string | undefined;
  /** each page file's size and SHA-256 by name, once closed */
  readonly files: Record<string, FileRecord>;
  /** the shards hard-linked from the previous snapshot, once closed: their pages' entries are the previous ones (write-manifest.ts copies their lines) */
  readonly linkedShards: ReadonlySet<number>;
  /** how many of `entries` are pages the previous snapshot has too (all of them, and as many as it has: the same keys) */
  readonly previousKeys: number;
  /** the stamps of the previous page files the check verified, followed through the links made (file-stamps.ts), once closed */
  readonly stamps: FollowedStamps | undefined;
}

export interface PageWriterOptions {
  /** how many shards the pages are spread over (page-shards.ts shardCountFor) */
  readonly shards: number;
  readonly reuse?: ReusablePages | undefined;
  /** the check of the previous snapshot's shards, started before the writer (link-check.ts); the writer stops it */
  readonly check?: ShardCheck | undefined;
}

/** One shard's page files and what of them is taken from the previous snapshot as it is. */
interface Shard {
  readonly index: number;
  /** its files, once a page is written to it */
  files: Record<PageKind, AppendOnly> | undefined;
  /**
   * The pages of this shard, in order, taken from the previous snapshot's same shard at the same
   * place (not read): the first bytes of its previous files, up to `ends`. Undefined once the
   * shard cannot be linked (a page not in its place was written to it): those pages were then
   * written out. Each is its page number in the previous page table when it was copied
   * unrendered, its bitwise complement (negative) when it was rendered to the same bytes: no key
   * and no entry a page, for the 300,000 pages a small rebuild takes so, all kept to the end
   * (docs/performance.md, "The pages phase's pages taken by their place").
   */
  linked: number[] | undefined;
  /** the end of the linked pages in the previous body, br and gzip files */
  readonly ends: [number, number, number];
  /** pages copied from the previous snapshot not yet appended: consecutive in one previous shard's files */
  run: Run | undefined;
  /** pages of this shard queued in the compress pool, not yet placed: variants at hand wait behind them */
  waiting: number;
}

/**
 * Pages taken from the previous snapshot for a shard that is written (not linked), whose bytes
 * follow each other in one previous shard's files: appended together when the run ends (a page
 * that does not follow, a page rendered into the shard, RUN_BYTES, or the end), read with one read
 * a file into a buffer reused from run to run, checked page by page (each range's CRC-32), and
 * appended with one append a file (flushRun), instead of three reads and three appends a page.
 */
interface Run {
  /** the previous shard the pages are read from */
  readonly from: number;
  readonly pages: { key: string; before: PageEntry; entry: MutableEntry; copied: boolean }[];
  /** where the run starts in the previous body, br and gzip files, and where it ends */
  readonly start: [number, number, number];
  readonly end: [number, number, number];
}

/** A page of the previous snapshot whose key is in the map of the others (`taken`: TAKEN while it is taken in place) */
const IN_OTHERS = 2;

/** Identity bytes a run holds at most before it is appended (its bytes are read at once). */
const RUN_BYTES = 1 << 20;
/** the range of a page whose bytes are not appended yet (replaced when its run is) */
const NOT_YET: Range = [0, 0, 0, 0];

const KIND_INDEX: Readonly<Record<PageKind, number>> = { body: 0, br: 1, gzip: 2 };

export function createPageWriter(dir: string, options: PageWriterOptions): PageWriter {
  const { shards: shardCount } = options;
  const pool = createCompressPool();
  const sinks = createPageFileSinks();
  /** the pages not taken in place (those are `taken`, by their previous page number) */
  const others = new Map<string, PageEntry>();
  /** the entries of `others` taken from the previous snapshot as they were (their ETag is the previous page's) */
  const carried = new Set<PageEntry>();
  const bytes = { identity: 0, br: 0, gzip: 0 };
  const counts: PageCounts = { reused: 0, compressed: 0, copied: 0, linked: 0, unlinked: 0 };
  const records: Record<string, FileRecord> = {};
  const linkedShards = new Set<number>();
  let previousKeys = 0;
  let reuse = options.reuse;
  /** the previous snapshot's pages (a page table: their ranges read without an entry made) */
  const table: PageTable | undefined = reuse && pageTableOf(reuse.pages);
  /**
   * A byte a previous page: TAKEN while it is taken in place (in Shard.linked, not in `others`),
   * IN_OTHERS once its key is in `others`, else 0; so a page of the previous snapshot is known to be
   * written twice without its key looked up in `others`.
   */
  const taken = new Uint8Array(table?.size ?? 0);
  let takenCount = 0;
  const entries = new WrittenPages(others, table, taken, () => takenCount);
  let reuseStopped: string | undefined;
  /** shards of the previous snapshot a read from failed its check: nothing more is read from them */
  const untrusted = new Set<number>();
  /** the last page found identical to its previous one, so write() need not read it again */
  let confirmed: { key: string; body: Buffer } | undefined;
  let renderAgain: RenderAgain | undefined;
  // Shards are linked only from a previous snapshot of as many shards (so a page's shard is the same).
  const linking = reuse !== undefined && reuse.files.shards === shardCount;
  const check = !linking ? undefined : options.check?.shards === shardCount ? options.check : startShardCheck(reuse!.files.dir, reuse!.files.id, shardCount, reuse!.files.records);
  /** a check started before the writer that it does not use (the shard counts differ) */
  const unused = options.check !== check ? options.check : undefined;
  const shards: Shard[] = Array.from({ length: shardCount }, (_, index) => ({ index, files: undefined, linked: linking ? [] : undefined, ends: [0, 0, 0], run: undefined, waiting: 0 }));
  // The sinks' thread is started now when a shard is sure to be written (none is linked, or the
  // check skips shards from the start: they hold a video whose pages' inputs changed), so that its
  // start overlaps the pages instead of waiting for the first batch, late in a small rebuild.
  if (!linking || (check?.skippedFromStart ?? 0) > 0) sinks.start();

  const filesOf = (shard: Shard): Record<PageKind, AppendOnly> =>
    (shard.files ??= Object.fromEntries(PAGE_KINDS.map((kind) => [kind, appendOnly(join(dir, pageFileName(kind, shard.index)), shard.index, sinks)])) as Record<PageKind, AppendOnly>);

  /** Runs a read of the previous page files; a failed check stops every later read from that shard. */
  const fromPrevious = <T>(shard: number, read: (previous: ReusablePages) => T): T | undefined => {
    if (reuse === undefined || untrusted.has(shard)) return undefined;
    try {
      return read(reuse);
    } catch (error) {
      if (!(error instanceof PageReadError)) throw error;
      reuseStopped ??= error.message;
      untrusted.add(shard);
      return undefined;
    }
  };
  const isPrevious = (key: string, body: Buffer): boolean => {
    if (confirmed?.key === key && confirmed.body === body) return true;
    const before = table?.get(key);
    if (before === undefined || before.body[1] !== body.length) return false;
    const same = fromPrevious(before.body[3], (previous) => previous.files.read('body', before.body).equals(body)) ?? false;
    if (same) confirmed = { key, body };
    return same;
  };
  /** The variants of the previous page `before` (read and checked); undefined when a read failed its check. */
  const variantsOf = (before: PageEntry): Variants | undefined =>
    fromPrevious(before.body[3], (previous): Variants => [before.br && previous.files.read('br', before.br), before.gzip && previous.files.read('gzip', before.gzip)]);
  /** The previous page's variants, when `body` is exactly its bytes. */
  const previousVariants = (key: string, body: Buffer): Variants | undefined => {
    if (!isPrevious(key, body)) return undefined;
    return variantsOf(table!.get(key)!);
  };
  /** Appends a page's variants to its shard's files (in page order: the caller keeps it). */
  const place = (shard: Shard, entry: MutableEntry, [br, gzip]: Variants, sums?: Checksums) => {
    if (br) {
      entry.br = filesOf(shard).br.append(br, sums?.[0]);
      bytes.br += br.length;
    }
    if (gzip) {
      entry.gzip = filesOf(shard).gzip.append(gzip, sums?.[1]);
      bytes.gzip += gzip.length;
    }
  };
  /**
   * Queues a page for its variants, compressed by the pool or `ready` (the previous page's, with
   * their checksums), placed in page order; ready ones are placed at once when no page of the same
   * shard waits for its variants (the order that matters is each shard's files').
   */
  const queue = (shard: Shard, entry: MutableEntry, body: Buffer, ready: Variants | undefined, sums?: Checksums) => {
    if (ready !== undefined && shard.waiting === 0) {
      place(shard, entry, ready, sums);
      return;
    }
    inPool(shard, ready !== undefined ? { ready } : { body }, (variants) => place(shard, entry, variants, sums));
  };
  /** Queues in the pool a page of `shard` (its body, or its variants behind the shard's pages waiting there). */
  const inPool = (shard: Shard, page: { readonly body: Buffer } | { readonly ready: Variants }, done: (variants: Variants) => void) => {
    shard.waiting++;
    pool.queue(page, (variants) => {
      shard.waiting--;
      done(variants);
    });
  };

  /** a previous page's range as the table gives it: offset, length, shard (page-table.ts rangeInto) */
  const place3 = new Float64Array(3);
  /** Whether previous page number `n` would be at the same place in `shard` (its next bytes in every file). */
  const inPlace = (shard: Shard, n: number): boolean => {
    if (shard.linked === undefined) return false;
    for (let r = 0; r < 3; r++) {
      if (!table!.rangeInto(n, r, place3)) {
        if (r === 0) return false;
        continue;
      }
      if (place3[2] !== shard.index || place3[0] !== shard.ends[r]) return false;
    }
    return true;
  };
  /** Adds (`sign` 1) or takes off (-1) the lengths of previous page number `n`'s ranges to the bytes written, and to `ends` when given. */
  const countTaken = (n: number, sign: number, ends?: [number, number, number]) => {
    for (let r = 0; r < 3; r++) {
      if (!table!.rangeInto(n, r, place3)) continue;
      const length = sign * place3[1]!;
      if (ends) ends[r] = ends[r]! + length;
      if (r === 0) bytes.identity += length;
      else if (r === 1) bytes.br += length;
      else bytes.gzip += length;
    }
  };
  /** Takes previous page number `n` as it is, in its place in `shard` (read only if the shard is not linked). */
  const takeInPlace = (shard: Shard, n: number, copied: boolean) => {
    shard.linked!.push(copied ? n : ~n);
    taken[n] = TAKEN;
    takenCount++;
    countTaken(n, 1, shard.ends);
  };

  /** The previous page files' descriptors, by name, opened at their first run (closed by `closeRunFiles`). */
  const runFiles = new Map<string, number>();
  const closeRunFiles = () => {
    for (const fd of runFiles.values()) closeSync(fd);
    runFiles.clear();
  };
  /**
   * The buffers runs are read into, one a page kind: made zero-filled, grown when a run needs more,
   * and reused; nothing keeps a view of them past its run (its bytes are appended or queued, which
   * copies them), so a run allocates nothing.
   */
  const runBuffers: Buffer[] = [];
  /** The bytes [start, end) of a previous page file of kind `k`, exactly (PageReadError otherwise): a view of its run buffer, valid until the next read. */
  const readPrevious = (k: number, shard: number, start: number, end: number): Buffer => {
    const name = pageFileName(PAGE_KINDS[k]!, shard);
    let fd = runFiles.get(name);
    if (fd === undefined) {
      try {
        fd = openSync(join(reuse!.files.dir, name), 'r');
      } catch (error) {
        throw new PageReadError(name, `cannot be opened (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
      runFiles.set(name, fd);
    }
    const length = end - start;
    if ((runBuffers[k]?.length ?? 0) < length) runBuffers[k] = Buffer.alloc(Math.max(length, 2 * RUN_BYTES));
    return readExactlyInto(fd, runBuffers[k]!, length, start, name);
  };

  /**
   * Takes the previous page `before` for `shard`, to be appended with its run (Run); its entry is
   * in `entries` at once, its ranges once appended. False when its previous shard cannot be read from.
   */
  const addToRun = (shard: Shard, key: string, before: PageEntry, copied: boolean): boolean => {
    const from = before.body[3];
    if (reuse === undefined || untrusted.has(from)) return false;
    // a page too small to compress has no variants (the same code made them): one that has some is rendered
    if (before.body[1] < MIN_COMPRESSIBLE && (before.br !== undefined || before.gzip !== undefined)) return false;
    const { br, gzip } = before;
    let run = shard.run;
    // each of the page's ranges starts where the run's ends in that file (a variant no page of the run had yet starts it)
    if (run !== undefined && !(run.from === from && run.end[0] === before.body[0]
      && (br === undefined || (br[3] === from && (run.start[1] === -1 || run.end[1] === br[0])))
      && (gzip === undefined || (gzip[3] === from && (run.start[2] === -1 || run.end[2] === gzip[0]))))) {
      flushRun(shard);
      run = undefined;
    }
    if (run === undefined) {
      // a variant the first page lacks starts where the next one that has it does: found as they come
      const starts = [before.body[0], br?.[0] ?? -1, gzip?.[0] ?? -1] as const;
      run = { from, pages: [], start: [starts[0], starts[1], starts[2]], end: [starts[0], starts[1], starts[2]] };
      shard.run = run;
    }
    const entry: MutableEntry = { etag: before.etag, body: NOT_YET };
    if (before.link !== undefined) entry.link = before.link;
    if (before.noindex) entry.noindex = true;
    others.set(key, entry);
    carried.add(entry);
    run.pages.push({ key, before, entry, copied });
    run.end[0] += before.body[1];
    if (br !== undefined) {
      if (run.start[1] === -1) run.start[1] = run.end[1] = br[0];
      run.end[1] += br[1];
    }
    if (gzip !== undefined) {
      if (run.start[2] === -1) run.start[2] = run.end[2] = gzip[0];
      run.end[2] += gzip[1];
    }
    if (run.end[0] - run.start[0] >= RUN_BYTES) flushRun(shard);
    return true;
  };

  /**
   * Appends the pages of a shard's run: each file's bytes read at once, each page's ranges checked
   * against their CRC-32, then the bytes of the pages that passed appended at once, each file's with
   * one append (the checksums recorded are those of the bytes just checked: carried, not computed
   * again). From a page that fails its check (or a read that fails), nothing more is read from that
   * previous shard, and the page and the rest of the run are rendered again.
   */
  function flushRun(shard: Shard): void {
    const run = shard.run;
    if (run === undefined) return;
    shard.run = undefined;
    let blocks: (Buffer | undefined)[] | undefined;
    if (!untrusted.has(run.from)) {
      try {
        blocks = [0, 1, 2].map((k) => (run.start[k]! >= 0 ? readPrevious(k, run.from, run.start[k]!, run.end[k]!) : undefined));
      } catch (error) {
        if (!(error instanceof PageReadError)) throw error;
        reuseStopped ??= error.message;
        untrusted.add(run.from);
      }
    }
    /** the first range of the page that does not match its checksum, as [kind, range] */
    const fails = (k: number, range: Range | undefined): boolean => {
      if (range === undefined) return false;
      const at = range[0] - run.start[k]!;
      return checksumOf(blocks![k]!.subarray(at, at + range[1])) !== range[2];
    };
    const damaged = (before: PageEntry): [number, Range] | undefined =>
      (fails(0, before.body) ? [0, before.body] : fails(1, before.br) ? [1, before.br!] : fails(2, before.gzip) ? [2, before.gzip!] : undefined);
    let good = 0;
    if (blocks !== undefined) {
      for (; good < run.pages.length; good++) {
        const bad = damaged(run.pages[good]!.before);
        if (bad === undefined) continue;
        const [k, [offset, length]] = bad;
        reuseStopped ??= new PageReadError(pageFileName(PAGE_KINDS[k]!, run.from), `the ${length} bytes at ${offset} do not match their checksum (the file changed or is damaged)`).message;
        untrusted.add(run.from);
        break;
      }
    }
    if (good > 0) appendRun(shard, run, good, blocks!);
    for (let i = good; i < run.pages.length; i++) {
      const { key, copied } = run.pages[i]!;
      if (renderAgain === undefined) throw new Error(`page ${key} cannot be read intact from the previous snapshot, and there is nothing to render it again with`);
      counts.reused--;
      if (copied) counts.copied--;
      writeNow(shard, key, renderAgain(key));
    }
  }

  /**
   * Appends the first `good` pages of a run, checked, from its `blocks` (the bytes read for it):
   * their bodies with one append, their br and gzip variants with one append each when placed (in
   * page order, behind the pages waiting for theirs); each page's ranges follow from where its
   * bytes were in the previous file.
   */
  function appendRun(shard: Shard, run: Run, good: number, blocks: readonly (Buffer | undefined)[]): void {
    const files = filesOf(shard);
    const last = run.pages[good - 1]!.before.body;
    const body = blocks[0]!.subarray(0, last[0] + last[1] - run.start[0]!);
    const bodyAt = files.body.appendBytes(body) - run.start[0]!;
    bytes.identity += body.length;
    /** where the good pages' variants end in the br and gzip blocks */
    let brEnd = 0;
    let gzipEnd = 0;
    for (let i = 0; i < good; i++) {
      const { before, entry } = run.pages[i]!;
      entry.body = [bodyAt + before.body[0], before.body[1], before.body[2], shard.index];
      if (before.br) brEnd = before.br[0] + before.br[1] - run.start[1]!;
      if (before.gzip) gzipEnd = before.gzip[0] + before.gzip[1] - run.start[2]!;
    }
    if (brEnd === 0 && gzipEnd === 0) return;
    const placeRun = ([br, gzip]: Variants) => {
      const brAt = br ? files.br.appendBytes(br) - run.start[1]! : 0;
      const gzipAt = gzip ? files.gzip.appendBytes(gzip) - run.start[2]! : 0;
      bytes.br += br?.length ?? 0;
      bytes.gzip += gzip?.length ?? 0;
      for (let i = 0; i < good; i++) {
        const { before, entry } = run.pages[i]!;
        if (before.br) entry.br = [brAt + before.br[0], before.br[1], before.br[2], shard.index];
        if (before.gzip) entry.gzip = [gzipAt + before.gzip[0], before.gzip[1], before.gzip[2], shard.index];
      }
    };
    const ready: Variants = [brEnd > 0 ? blocks[1]!.subarray(0, brEnd) : undefined, gzipEnd > 0 ? blocks[2]!.subarray(0, gzipEnd) : undefined];
    if (shard.waiting === 0) placeRun(ready);
    else inPool(shard, { ready }, placeRun);
  }

  const writeNow = (shard: Shard, key: string, rendered: Rendered) => {
    flushRun(shard);
    const { body } = rendered;
    const entry: MutableEntry = { etag: rendered.headers['etag']!, body: filesOf(shard).body.append(body) };
    bytes.identity += body.length;
    if (rendered.headers['link']) entry.link = rendered.headers['link'];
    if (rendered.headers['x-robots-tag']) entry.noindex = true;
    others.set(key, entry);
    const ready = previousVariants(key, body);
    confirmed = undefined;
    if (ready) counts.reused++;
    if (body.length >= MIN_COMPRESSIBLE) {
      if (!ready) counts.compressed++;
      const before = ready && table?.get(key);
      queue(shard, entry, body, ready, before ? [before.br?.[2], before.gzip?.[2]] : undefined);
    }
  };

  /**
   * The shard will not be linked: the pages taken in place so far are written out, in order, read
   * from the previous files (each range checked), or rendered again when they cannot be read intact.
   */
  const unlink = (shard: Shard) => {
    const numbers = shard.linked;
    if (numbers === undefined) return;
    shard.linked = undefined;
    check?.skip(shard.index);
    for (const held of numbers) {
      const n = held < 0 ? ~held : held;
      taken[n] = IN_OTHERS;
      takenCount--;
      countTaken(n, -1);
    }
    for (const held of numbers) {
      const n = held < 0 ? ~held : held;
      const copied = held >= 0;
      const key = table!.keyAt(n);
      if (addToRun(shard, key, table!.entryAt(n), copied)) continue;
      if (renderAgain === undefined) throw new Error(`page ${key} cannot be read intact from the previous snapshot, and there is nothing to render it again with`);
      counts.reused--;
      if (copied) counts.copied--;
      writeNow(shard, key, renderAgain(key));
    }
  };

  /**
   * At the end: hard-links each shard whose pages were all taken in place and fill its previous
   * files exactly, when those files are whole (shard-check.ts) and the link can be made; every
   * other shard's taken pages are written out (`unlink`).
   */
  let stamps: FollowedStamps | undefined;
  const linkShards = async () => {
    if (check === undefined) return;
    const { files: previous } = reuse!;
    const sizeOf = (kind: PageKind, shard: number) => previous.records[pageFileName(kind, shard)]?.size;
    for (const shard of shards) {
      if (shard.linked !== undefined && !PAGE_KINDS.every((kind) => sizeOf(kind, shard.index) === shard.ends[KIND_INDEX[kind]])) unlink(shard);
    }
    // a shard skipped before rendering (a video of it changed) whose pages all kept their places is checked now
    for (const shard of shards) if (shard.linked !== undefined) check.want(shard.index);
    const whole = await check.finish();
    stamps = new FollowedStamps(check.verified());
    for (const shard of shards) {
      if (shard.linked === undefined) continue;
      if (!whole(shard.index) || untrusted.has(shard.index)) {
        counts.unlinked++;
        unlink(shard);
        flushRun(shard); // read now: a page that fails its check names itself first
        reuseStopped ??= `${pageFileName('body', shard.index)} or its variants do not match the served snapshot's manifest: their pages were read by range, each checked`;
        continue;
      }
      const made: string[] = [];
      try {
        for (const kind of PAGE_KINDS) {
          const name = pageFileName(kind, shard.index);
          stamps.link(name, join(previous.dir, name), join(dir, name));
          made.push(name);
          records[name] = previous.records[name]!;
        }
        counts.linked++;
        linkedShards.add(shard.index);
        shard.linked = undefined;
      } catch (error) {
        // no hard links here (another file system, or not allowed): the pages are copied instead
        for (const name of made) {
          rmSync(join(dir, name), { force: true });
          delete records[name];
        }
        reuseStopped ??= `the served snapshot's page files cannot be hard-linked (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): their pages were copied`;
        counts.unlinked++;
        unlink(shard);
      }
    }
  };

  const closeAll = async () => {
    const ending: [string, AppendOnly][] = [];
    for (const shard of shards) {
      if (records[pageFileName('body', shard.index)] !== undefined) continue; // linked
      // an empty shard gets empty files
      const files = filesOf(shard);
      for (const kind of PAGE_KINDS) {
        files[kind].end();
        ending.push([pageFileName(kind, shard.index), files[kind]]);
      }
    }
    const written = await sinks.finish();
    for (const [name, file] of ending) records[name] = file.close(written);
  };

  return {
    entries,
    get stamps() {
      return stamps;
    },
    carriesPreviousEtag: (entry) => carried.has(entry) || entries.madeForTaken(entry),
    bytes,
    counts,
    get reuseStopped() {
      return reuseStopped;
    },
    files: records,
    linkedShards,
    get previousKeys() {
      return previousKeys;
    },
    isPrevious,
    copy(key, again) {
      const n = table?.indexOf(key) ?? -1;
      // a key the previous snapshot has not is never copied (write() says whether it was written twice)
      if (n === -1) return false;
      if (taken[n] !== 0) throw new Error(`page ${key} was rendered twice`);
      if (again) renderAgain = again;
      const shard = shards[shardOf(key, shardCount)]!;
      if (inPlace(shard, n)) {
        takeInPlace(shard, n, true);
      } else {
        unlink(shard);
        if (!addToRun(shard, key, table!.entryAt(n), true)) return false;
        taken[n] = IN_OTHERS;
      }
      counts.reused++;
      counts.copied++;
      previousKeys++;
      return true;
    },
    write(key, rendered) {
      const n = table?.indexOf(key) ?? -1;
      if (n === -1 ? others.has(key) : taken[n] !== 0) throw new Error(`page ${key} was rendered twice`);
      const shard = shards[shardOf(key, shardCount)]!;
      if (n !== -1) previousKeys++;
      const before = n !== -1 && inPlace(shard, n) ? table!.entryAt(n) : undefined;
      // a page rendered to exactly its previous bytes and headers, in its place, keeps the shard linkable
      if (before && before.etag === rendered.headers['etag'] && before.link === rendered.headers['link']
        && (before.noindex === true) === (rendered.headers['x-robots-tag'] !== undefined) && isPrevious(key, rendered.body)) {
        confirmed = undefined;
        takeInPlace(shard, n, false);
        counts.reused++;
        return;
      }
      unlink(shard);
      if (n !== -1) taken[n] = IN_OTHERS;
      writeNow(shard, key, rendered);
    },
    async keepUp() {
      // the pages queued so far go to the workers, whose results are taken (no wait); too many queued
      // (rendering is ahead of the workers): compress the waiting batches here, then wait
      pool.flush();
      pool.receive();
      while (pool.pending > MAX_PENDING_BATCHES && pool.compressHere());
      if (pool.pending > MAX_PENDING_BATCHES) await pool.drain();
      // the files' writes too: the bytes handed over and not yet written stay bounded
      await sinks.keepUp();
    },
    async close() {
      try {
        await linkShards();
        for (const shard of shards) flushRun(shard);
        await pool.drain();
      } finally {
        await check?.stop();
        await unused?.stop();
        closeRunFiles();
        reuse?.files.close();
        reuse = undefined;
        await pool.close();
      }
      // every shard not linked gets its files, an empty shard empty ones
      await closeAll();
    },
    async abort() {
      await check?.stop();
      await unused?.stop();
      closeRunFiles();
      reuse?.files.close();
      reuse = undefined;
      await pool.close();
      await sinks.abort();
      for (const shard of shards) for (const file of Object.values(shard.files ?? {})) file.abandon();
    },
  };
}
