// Worker thread of the server: verifies a snapshot (verify-snapshot.ts) and moves the bytes it
// verified to the main thread, so reading and hashing hundreds of megabytes never holds up a
// request. First the manifest (with the start of each page line) and the page files held in
// memory; then, when the main thread asks for it, the model data a chunk at a time
// (verified-chunks.ts: hashed as it goes, checked at its end). The search index is decoded on a
// worker of its own (search-worker.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { SnapshotRefused, verifyManifest, type VerifiedManifest, type VerifyOptions } from '../snapshot/verify-snapshot.ts';
import { readVerifiedChunks, type VerifiedChunks } from './verified-chunks.ts';

export interface VerifyRequest {
  readonly dir: string;
  readonly id: string;
  readonly options: VerifyOptions;
  /** bytes a chunk of the model data holds (default verified-chunks.ts CHUNK_BYTES; tests use fewer) */
  readonly chunkBytes?: number;
}

/** What the main thread asks for after the manifest: the next chunk of a file of the snapshot (verified at its end). */
export interface FileRequest {
  readonly chunk: string;
}

export type Refusal = { readonly refused: boolean; readonly message: string };
export type VerifyReply =
  | { readonly manifest: VerifiedManifest }
  /** the next chunk of a file, or null once it is read whole and matches the manifest */
  | { readonly chunkOf: string; readonly bytes: Uint8Array | null }
  | Refusal;

/**
 * The ArrayBuffer under a view, to be transferred: its own copy when the view is not all of it
 * (Uint8Array's slice, which copies: a Buffer's own slice would be a view of the same pool).
 */
const own = <T extends Uint8Array | Uint32Array>(bytes: T): T =>
  (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : (bytes instanceof Uint8Array ? Uint8Array.prototype.slice.call(bytes) : bytes.slice()) as T);

const refusal = (error: unknown): Refusal => ({ refused: error instanceof SnapshotRefused, message: (error as Error).message });

if (parentPort) {
  const port = parentPort;
  const { dir, id, options, chunkBytes } = workerData as VerifyRequest;
  try {
    const verified = verifyManifest(dir, id, options);
    const manifest: VerifiedManifest = {
      head: verified.head,
      manifest: own(verified.manifest),
      lines: { ...verified.lines, starts: own(verified.lines.starts) },
      shards: verified.shards,
      pages: verified.pages && { body: verified.pages.body.map(own), br: verified.pages.br.map(own), gzip: verified.pages.gzip.map(own) },
      builtAt: verified.builtAt,
    };
    const transfer = [manifest.manifest, manifest.lines.starts, ...(manifest.pages ? [...manifest.pages.body, ...manifest.pages.br, ...manifest.pages.gzip] : [])]
      .map((b) => b.buffer as ArrayBuffer);
    port.postMessage({ manifest } satisfies VerifyReply, transfer);
    // chunks are read one ahead: the next is read and hashed while the main thread parses this one.
    // A request that comes before the read-ahead has run (this thread held up between answering
    // and its next turn, the request already queued) cancels it and reads the chunk itself: each
    // chunk is read once and sent once, in order (two read-aheads in a row lost a chunk).
    const reading = new Map<string, VerifiedChunks>();
    const ahead = new Map<string, VerifyReply>();
    const readingAhead = new Map<string, NodeJS.Immediate>();
    const nextChunk = (name: string): VerifyReply => {
      try {
        let chunks = reading.get(name);
        if (!chunks) reading.set(name, (chunks = readVerifiedChunks(dir, name, verified.head, chunkBytes)));
        const bytes = chunks.next();
        if (!bytes) reading.delete(name);
        return { chunkOf: name, bytes: bytes ?? null };
      } catch (error) {
        reading.delete(name);
        return refusal(error);
      }
    };
    port.on('message', (request: FileRequest) => {
      const name = request.chunk;
      clearImmediate(readingAhead.get(name));
      readingAhead.delete(name);
      const reply = ahead.get(name) ?? nextChunk(name);
      ahead.delete(name);
      const bytes = 'bytes' in reply ? reply.bytes : null;
      port.postMessage(reply, bytes ? [bytes.buffer as ArrayBuffer] : []);
      if (bytes) {
        readingAhead.set(name, setImmediate(() => {
          readingAhead.delete(name);
          ahead.set(name, nextChunk(name));
        }));
      }
    });
  } catch (error) {
    port.postMessage(refusal(error) satisfies VerifyReply);
  }
}
