// Worker thread of the server: verifies a snapshot (verify-snapshot.ts) and moves the bytes it
// verified to the main thread, so reading and hashing hundreds of megabytes never holds up a
// request. First the manifest (with the start of each page line) and the page files held in
// memory; then, each when the main thread asks for it, the model and the search index (one at a
// time, so the two are never held at once).
import { parentPort, workerData } from 'node:worker_threads';
import { readVerifiedFile, SnapshotRefused, verifyManifest, type VerifiedManifest, type VerifyOptions } from '../snapshot/verify-snapshot.ts';

export interface VerifyRequest {
  readonly dir: string;
  readonly id: string;
  readonly options: VerifyOptions;
}

/** What the main thread asks for after the manifest: a file of the snapshot, verified. */
export interface FileRequest {
  readonly read: string;
}

export type Refusal = { readonly refused: boolean; readonly message: string };
export type VerifyReply = { readonly manifest: VerifiedManifest } | { readonly file: string; readonly bytes: Uint8Array } | Refusal;

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
  const { dir, id, options } = workerData as VerifyRequest;
  try {
    const verified = verifyManifest(dir, id, options);
    const manifest: VerifiedManifest = {
      head: verified.head,
      manifest: own(verified.manifest),
      lines: { ...verified.lines, starts: own(verified.lines.starts) },
      pages: verified.pages && { body: own(verified.pages.body), br: own(verified.pages.br), gzip: own(verified.pages.gzip) },
      builtAt: verified.builtAt,
    };
    const transfer = [manifest.manifest, manifest.lines.starts, ...(manifest.pages ? [manifest.pages.body, manifest.pages.br, manifest.pages.gzip] : [])]
      .map((b) => b.buffer as ArrayBuffer);
    port.postMessage({ manifest } satisfies VerifyReply, transfer);
    port.on('message', ({ read }: FileRequest) => {
      try {
        const bytes = own(readVerifiedFile(dir, read, verified.head));
        port.postMessage({ file: read, bytes } satisfies VerifyReply, [bytes.buffer as ArrayBuffer]);
      } catch (error) {
        port.postMessage(refusal(error) satisfies VerifyReply);
      }
    });
  } catch (error) {
    port.postMessage(refusal(error) satisfies VerifyReply);
  }
}
