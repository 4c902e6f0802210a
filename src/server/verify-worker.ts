// Worker thread of the server: verifies a snapshot (verify-snapshot.ts) and moves the page files
// it checked (when they are held in memory) to the main thread, so hashing hundreds of megabytes
// never holds up a request.
import { parentPort, workerData } from 'node:worker_threads';
import { SnapshotRefused, verifySnapshot, type VerifiedFiles, type VerifyOptions } from '../snapshot/verify-snapshot.ts';

export interface VerifyRequest {
  readonly dir: string;
  readonly id: string;
  readonly options: VerifyOptions;
}

export type VerifyReply = { readonly files: VerifiedFiles } | { readonly refused: boolean; readonly message: string };

/** The ArrayBuffer under a view, to be transferred: its own copy when the view is not all of it. */
const own = (bytes: Uint8Array): Uint8Array =>
  (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.prototype.slice.call(bytes));

if (parentPort) {
  const { dir, id, options } = workerData as VerifyRequest;
  try {
    const verified = verifySnapshot(dir, id, options);
    const files: VerifiedFiles = {
      head: verified.head,
      pages: verified.pages && { body: own(verified.pages.body), br: own(verified.pages.br), gzip: own(verified.pages.gzip) },
      builtAt: verified.builtAt,
    };
    const transfer = files.pages ? [files.pages.body, files.pages.br, files.pages.gzip].map((b) => b.buffer as ArrayBuffer) : [];
    parentPort.postMessage({ files } satisfies VerifyReply, transfer);
  } catch (error) {
    parentPort.postMessage({ refused: error instanceof SnapshotRefused, message: (error as Error).message } satisfies VerifyReply);
  }
}
