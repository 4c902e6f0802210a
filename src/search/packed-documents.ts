// The search documents packed for a worker thread: per kind, the keys and each indexed field as one
// string with the end of every value (search-index.ts PackedStrings). The build makes the documents
// from the model on its main thread and indexes them on a worker (src/snapshot/search-file.ts): a
// few long strings are copied to the worker and the offsets transferred, instead of a structured
// clone of every document object.
import { KIND_SPECS, SEARCH_KINDS, type SearchDocument, type SearchKind } from './documents.ts';
import { runSteps } from '../model/steps.ts';
import { packStrings, unpackStrings, type KindDocuments, type PackedStrings } from './search-index.ts';

export interface PackedKind {
  readonly keys: PackedStrings;
  /** each indexed field's values (KIND_SPECS order), as buildKind reads them: `String(doc[field] ?? '')` */
  readonly fields: readonly PackedStrings[];
}

export type PackedDocuments = Readonly<Record<SearchKind, PackedKind>>;

export function packDocuments(docs: KindDocuments): PackedDocuments {
  const kind = (k: SearchKind): PackedKind => {
    const { keys, documents } = docs[k];
    return { keys: packStrings(keys), fields: KIND_SPECS[k].fields.map((field) => packStrings(documents.map((doc) => String(doc[field] ?? '')))) };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}

/** The buffers of the packed offsets, which postMessage may transfer instead of copying. */
export function packedBuffers(packed: PackedDocuments): ArrayBuffer[] {
  return SEARCH_KINDS.flatMap((k) => [packed[k].keys, ...packed[k].fields].map((p) => p.ends.buffer as ArrayBuffer));
}

/** The documents again, each value a slice of its field's string; refuses packing that does not fit its kind. */
export function unpackDocuments(packed: PackedDocuments): KindDocuments {
  const kind = (k: SearchKind) => {
    const { keys, fields } = packed[k];
    const names = KIND_SPECS[k].fields;
    const n = keys.ends.length;
    if (fields.length !== names.length || fields.some((f) => f.ends.length !== n)) throw new Error(`search documents: the packed ${k} do not have ${names.length} fields of ${n} values`);
    const values = [keys, ...fields].map((p) => runSteps(unpackStrings(p)));
    const documents = Array.from({ length: n }, (_, id): SearchDocument => {
      const doc: Record<string, string | number> = { id };
      names.forEach((name, f) => (doc[name] = values[f + 1]![id]!));
      return doc as SearchDocument;
    });
    return { keys: values[0]!, documents };
  };
  return { videos: kind('videos'), channels: kind('channels'), playlists: kind('playlists') };
}
