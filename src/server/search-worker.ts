// Worker thread of the server: reads a snapshot's search index, checks it against the SHA-256 the
// verified manifest records, decodes it (search-index.ts decodeSearchIndex: base64, postings,
// the typo index) and moves the decoded arrays to the main thread, which only unpacks the strings
// in steps (docs/reliability.md, "Loading without a stall"). One worker per load, ended once it has
// answered: the garbage of decoding (the file's bytes, its base64 as strings) goes with it instead
// of waiting in the server's heap for a full collection.
import { parentPort, workerData } from 'node:worker_threads';
import { decodedBuffers, decodeSearchIndex, type DecodedSearchIndex } from '../search/search-index.ts';
import type { ManifestHead } from '../snapshot/manifest.ts';
import { readVerifiedFile, SnapshotRefused } from '../snapshot/verify-snapshot.ts';
import type { Refusal } from './verify-worker.ts';

export interface SearchRequest {
  readonly dir: string;
  readonly file: string;
  readonly head: ManifestHead;
}

export type SearchReply = { readonly decoded: DecodedSearchIndex } | Refusal;

if (parentPort) {
  const { dir, file, head } = workerData as SearchRequest;
  let reply: SearchReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const decoded = decodeSearchIndex(readVerifiedFile(dir, file, head));
    reply = { decoded };
    transfer = decodedBuffers(decoded);
  } catch (error) {
    reply = { refused: error instanceof SnapshotRefused, message: (error as Error).message };
  }
  parentPort.postMessage(reply, transfer);
}
