// The search documents packed for a worker thread (the build makes them from the model on its main
// thread and indexes them on a worker: src/snapshot/search-file.ts). Per kind: the keys as one
// string with the end of each (search-index.ts PackedStrings), and each indexed field's values as
// UTF-16 code units in one buffer with the end of each value. The buffers are transferred, not
// copied: the main thread keeps no copy of the text and no structured clone of it is made, and the
// worker turns one value at a time back into a string, reads it once and lets each buffer go once
// its kind is tokenised. UTF-16 keeps every string exactly (a lone surrogate too, which UTF-8
// would replace), so the index is the one built from the documents themselves.
import { endianness } from 'node:os';
import { KIND_SPECS, SEARCH_KINDS, type SearchKind } from './documents.ts';
import { runSteps } from '../model/steps.ts';
import { documentSources, packStrings, unpackStrings, type DocumentSource, type KindDocuments, type KindSources, type PackedStrings } from './search-index.ts';

export interface PackedField {
  /** the values' UTF-16 code units, one after the other */
  readonly utf16: Uint8Array;
  /** the end of each value, in code units */
  readonly ends: Int32Array;
}

export interface PackedKind {
  readonly keys: PackedStrings;
  /** each indexed field's values (KIND_SPECS order), as buildKind reads them: `String(doc[field] ?? '')` */
  readonly fields: readonly PackedField[];
}

export type PackedDocuments = Readonly<Record<SearchKind, PackedKind>>;

/**
 * Field `f` of every document of `source`, packed: each value is made once (source.text), then
 * copied into a buffer of its own (never the pool's, so it can be transferred) that is not zeroed
 * first, since every byte of it is written (checked).
 */
function packField(source: DocumentSource, f: number): PackedField {
  const n = source.count;
  const values = new Array<string>(n);
  const ends = new Int32Array(n);
  let at = 0;
  for (let d = 0; d < n; d++) {
    const value = source.text(d, f);
    values[d] = value;
    ends[d] = at += value.length;
  }
  const bytes = Buffer.allocUnsafeSlow(at * 2);
  let written = 0;
  for (const v of values) written += bytes.write(v, written, 'utf16le');
  if (written !== bytes.length) throw new Error(`search documents: ${written} of ${bytes.length} bytes packed`);
  return { utf16: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), ends };
}

/** The documents of every kind packed, from their sources (documents.ts searchSources: straight from the model). */
export function packSources(sources: KindSources): PackedDocuments {
  const kind = (k: SearchKind): PackedKind => {
    const source = sources[k];
    return { keys: packStrings(source.keys), fields: KIND_SPECS[k].fields.map((_, f) => packField(source, f)) };
  };
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
      buffers.add(field.utf16.buffer as ArrayBuffer);
      buffers.add(field.ends.buffer as ArrayBuffer);
    }
  }
  return [...buffers];
}

/**
 * The packed documents as the sources buildSearchIndexOf reads, after checking that every value
 * lies within its buffer and every field has a value per key; each source drops its buffers once
 * read (DocumentSource.release).
 */
export function sourcesOf(packed: PackedDocuments): KindSources {
  const kind = (k: SearchKind): DocumentSource => {
    const { keys: packedKeys, fields } = packed[k];
    const names = KIND_SPECS[k].fields;
    const n = packedKeys.ends.length;
    if (fields.length !== names.length || fields.some((f) => f.ends.length !== n)) throw new Error(`search documents: the packed ${k} do not have ${names.length} fields of ${n} values`);
    for (const { utf16, ends } of fields) {
      let from = 0;
      for (const to of ends) {
        if (!(to >= from && to * 2 <= utf16.length)) throw new Error('search documents: packed strings are damaged');
        from = to;
      }
    }
    const keys = runSteps(unpackStrings(packedKeys));
    let texts: (Buffer | undefined)[] = fields.map(({ utf16 }) => Buffer.from(utf16.buffer, utf16.byteOffset, utf16.byteLength));
    let ends: (Int32Array | undefined)[] = fields.map((f) => f.ends);
    return {
      keys,
      count: n,
      text(d, f) {
        const e = ends[f]!;
        return texts[f]!.toString('utf16le', d === 0 ? 0 : e[d - 1]! * 2, e[d]! * 2);
      },
      codeUnits(f) {
        const bytes = texts[f];
        // UTF-16LE is the platform's own order of a Uint16Array's units on every platform Node runs on, checked all the same
        if (bytes === undefined || bytes.byteOffset % 2 !== 0 || endianness() !== 'LE') return undefined;
        return { units: new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2), ends: ends[f]! };
      },
      release() {
        texts = [];
        ends = [];
      },
    };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}
