// The search documents packed for a worker thread (the build makes them from the model on its main
// thread and indexes them on a worker: src/snapshot/search-file.ts). Per kind: the keys as one
// string with the end of each (search-index.ts PackedStrings), and each indexed field's values as
// UTF-16 code units in one buffer with the end of each value; the videos' descriptions instead as
// the UTF-8 the model's text pool holds (copied, never decoded here: the worker decodes them and
// takes their first DESCRIPTION_CHARS). The buffers are transferred, not
// copied: the main thread keeps no copy of the text and no structured clone of it is made, and the
// worker turns one value at a time back into a string, reads it once and lets each buffer go once
// its kind is tokenised. UTF-16 keeps every string exactly (a lone surrogate too, which UTF-8
// would replace), so the index is the one built from the documents themselves; a description's
// UTF-8 is the model's own (StoredVideo.description decodes those very bytes), so it is exact too.
import { endianness } from 'node:os';
import { DESCRIPTION_CHARS, KIND_SPECS, SEARCH_KINDS, shortDescription, type SearchKind } from './documents.ts';
import { runSteps } from '../model/steps.ts';
import { documentSources, packStrings, unpackStrings, type DocumentSource, type KindDocuments, type KindSources, type PackedStrings } from './search-index.ts';

/** A field's values: as UTF-16 code units, or (a description field: DocumentSource.descriptionBytes) as UTF-8. */
export type PackedField = PackedUtf16 | PackedDescriptions;

export interface PackedUtf16 {
  /** the values' UTF-16 code units, one after the other */
  readonly utf16: Uint8Array;
  /** the end of each value, in code units */
  readonly ends: Int32Array;
}

export interface PackedDescriptions {
  /**
   * each description's UTF-8 bytes (at most DESCRIPTION_BYTES of them, cut at the start of a
   * character), one after the other: the value is shortDescription of them decoded
   */
  readonly utf8: Uint8Array;
  /** the end of each description, in bytes */
  readonly ends: Int32Array;
}

/**
 * The bytes of a description that are copied: DESCRIPTION_CHARS code units take at most three bytes
 * each in UTF-8 (a character of four bytes is two code units), so the first DESCRIPTION_BYTES bytes
 * less a cut character (at most three bytes) decode to at least DESCRIPTION_CHARS code units, the
 * same as those of the whole description decoded. The text pool holds well-formed UTF-8 (written
 * from strings by Buffer.write), so a prefix cut at a character's start decodes to a prefix of the text.
 */
export const DESCRIPTION_BYTES = 3 * DESCRIPTION_CHARS + 3;

export interface PackedKind {
  readonly keys: PackedStrings;
  /** each indexed field's values (KIND_SPECS order), as buildKind reads them: `String(doc[field] ?? '')` */
  readonly fields: readonly PackedField[];
}

export type PackedDocuments = Readonly<Record<SearchKind, PackedKind>>;

/** How many of `bytes` (well-formed UTF-8) are copied: all, or DESCRIPTION_BYTES less a character they would cut. */
function copiedBytes(bytes: Uint8Array): number {
  if (bytes.length <= DESCRIPTION_BYTES) return bytes.length;
  let end = DESCRIPTION_BYTES;
  // back to the start of the character at `end` (a continuation byte is 10xxxxxx)
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return end;
}

/** A field's texts as gathered in the walk over the documents: pieces (UTF-16), or description bytes (views of the model's text pool). */
type Gathered = { readonly pieces: string[]; readonly ends: Int32Array; at: number } | { readonly views: (Uint8Array | undefined)[]; readonly ends: Int32Array; at: number };

/** The pieces gathered, joined once and written in one call into a buffer of its own (transferable), not zeroed first since every byte of it is written (checked). */
function utf16Of(pieces: string[], ends: Int32Array, at: number): PackedUtf16 {
  const text = pieces.join('');
  pieces.length = 0;
  if (text.length !== at) throw new Error(`search documents: ${text.length} of ${at} code units packed`);
  const bytes = Buffer.allocUnsafeSlow(at * 2);
  const written = bytes.write(text, 0, 'utf16le');
  if (written !== bytes.length) throw new Error(`search documents: ${written} of ${bytes.length} bytes packed`);
  return { utf16: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), ends };
}

/** The descriptions gathered, each one's bytes (the first DESCRIPTION_BYTES at most) copied, undecoded, into one buffer of their own (transferable). */
function utf8Of(views: (Uint8Array | undefined)[], ends: Int32Array): PackedDescriptions {
  const utf8 = new Uint8Array(ends.length === 0 ? 0 : ends[ends.length - 1]!);
  let from = 0;
  for (let d = 0; d < views.length; d++) {
    const bytes = views[d];
    const to = ends[d]!;
    if (bytes !== undefined && to > from) utf8.set(to - from === bytes.length ? bytes : bytes.subarray(0, to - from), from);
    from = to;
  }
  views.length = 0;
  return { utf8, ends };
}

/**
 * The documents of one kind packed, in one walk over them: every field of a document is read
 * while the document is at hand. A walk per field, as before, read each of a million videos (in
 * their `latest` order, scattered over the heap) five times, and at that size the walk's memory
 * reads were most of the packing's time (docs/performance.md, "Search documents packed with less
 * work"). A field's texts are gathered as pieces (DocumentSource.pieces; each text whole when the
 * source has none) and joined once; a description field's bytes (DocumentSource.descriptionBytes)
 * are copied as they are. Writing each text on its own (a call per text) and making a string of
 * each video's tags, creator and description took most of the rest.
 */
function packKind(source: DocumentSource, fieldCount: number, include?: (d: number) => boolean): PackedField[] {
  const n = source.count;
  const gathered: Gathered[] = [];
  const descriptions: ((d: number) => Uint8Array | undefined)[] = [];
  for (let f = 0; f < fieldCount; f++) {
    const bytesOf = source.descriptionBytes?.(f);
    if (bytesOf) descriptions[f] = bytesOf;
    gathered.push(bytesOf ? { views: new Array<Uint8Array | undefined>(n), ends: new Int32Array(n), at: 0 } : { pieces: [], ends: new Int32Array(n), at: 0 });
  }
  for (let d = 0; d < n; d++) {
    if (include && !include(d)) {
      // left out: an empty value (its digest and postings are the served index's)
      for (let f = 0; f < fieldCount; f++) gathered[f]!.ends[d] = gathered[f]!.at;
      continue;
    }
    for (let f = 0; f < fieldCount; f++) {
      const g = gathered[f]!;
      if ('views' in g) {
        const bytes = descriptions[f]!(d);
        g.views[d] = bytes;
        g.ends[d] = g.at += bytes === undefined ? 0 : copiedBytes(bytes);
      } else if (source.pieces) {
        g.ends[d] = g.at += source.pieces(d, f, g.pieces);
      } else {
        const value = source.text(d, f);
        g.pieces.push(value);
        g.ends[d] = g.at += value.length;
      }
    }
  }
  return gathered.map((g) => ('views' in g ? utf8Of(g.views, g.ends) : utf16Of(g.pieces, g.ends, g.at)));
}

/**
 * The documents of every kind packed, from their sources (documents.ts searchSources: straight from
 * the model): every document's key, and the text of every document or of those `include` names
 * (the others' values are empty: a rebuild's worker takes them from the served index, patch-index.ts).
 */
export function packSources(sources: KindSources, include?: Readonly<Record<SearchKind, (d: number) => boolean>>): PackedDocuments {
  const kind = (k: SearchKind): PackedKind => ({ keys: packStrings(sources[k].keys), fields: packKind(sources[k], KIND_SPECS[k].fields.length, include?.[k]) });
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}

/** The documents held as objects (searchDocuments), packed. */
export function packDocuments(docs: KindDocuments): PackedDocuments {
  return packSources(documentSources(docs));
}

/** The buffers of the packed documents (each once), which postMessage transfers instead of copying. */
export function packedBuffers(packed: PackedDocuments): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const k of SEARCH_KINDS) {
    buffers.add(packed[k].keys.ends.buffer as ArrayBuffer);
    for (const field of packed[k].fields) {
      buffers.add(('utf8' in field ? field.utf8 : field.utf16).buffer as ArrayBuffer);
      buffers.add(field.ends.buffer as ArrayBuffer);
    }
  }
  return [...buffers];
}

/**
 * The packed documents as the sources buildSearchIndexOf reads, after checking that every value
 * lies within its buffer and every field has a value per key; each source drops its buffers once
 * read (DocumentSource.release). `keysOf`: the keys, when the caller has them (not unpacked again).
 */
export function sourcesOf(packed: PackedDocuments, keysOf?: Readonly<Record<SearchKind, readonly string[]>>): KindSources {
  const kind = (k: SearchKind): DocumentSource => {
    const { keys: packedKeys, fields } = packed[k];
    const names = KIND_SPECS[k].fields;
    const n = packedKeys.ends.length;
    if (fields.length !== names.length || fields.some((f) => f.ends.length !== n)) throw new Error(`search documents: the packed ${k} do not have ${names.length} fields of ${n} values`);
    for (const field of fields) {
      // the end of the last value, in bytes: 2 per code unit, 1 per byte of a description
      const length = 'utf8' in field ? field.utf8.length : field.utf16.length / 2;
      let from = 0;
      for (const to of field.ends) {
        if (!(to >= from && to <= length)) throw new Error('search documents: packed strings are damaged');
        from = to;
      }
    }
    // the keys unpacked, unless the caller has them (the main thread: the model's, which it packed)
    const keys = keysOf?.[k] ?? runSteps(unpackStrings(packedKeys));
    if (keys.length !== n) throw new Error(`search documents: ${keys.length} ${k} keys for ${n} packed`);
    let texts: (Buffer | undefined)[] = fields.map((field) => {
      const bytes = 'utf8' in field ? field.utf8 : field.utf16;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
    const utf8 = fields.map((field) => 'utf8' in field);
    let ends: (Int32Array | undefined)[] = fields.map((f) => f.ends);
    return {
      keys,
      count: n,
      text(d, f) {
        const e = ends[f]!;
        const from = d === 0 ? 0 : e[d - 1]!;
        if (utf8[f]) return shortDescription(texts[f]!.toString('utf8', from, e[d]!));
        return texts[f]!.toString('utf16le', from * 2, e[d]! * 2);
      },
      codeUnits(f) {
        const bytes = texts[f];
        // UTF-16LE is the platform's own order of a Uint16Array's units on every platform Node runs on, checked all the same
        if (bytes === undefined || utf8[f] || bytes.byteOffset % 2 !== 0 || endianness() !== 'LE') return undefined;
        return { units: new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2), ends: ends[f]! };
      },
      descriptionUtf8(f) {
        const bytes = texts[f];
        return bytes === undefined || !utf8[f] ? undefined : { bytes, ends: ends[f]! };
      },
      release() {
        texts = [];
        ends = [];
      },
    };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}
