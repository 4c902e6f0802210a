// A file of a snapshot read a chunk at a time and hashed as it goes, for the model data
// (docs/reliability.md, "Loading without a stall"): the main thread parses each chunk as it comes
// instead of holding the whole file (215 MB for pyvideo-100k) beside the model it builds. The size
// and SHA-256 the verified manifest records are checked when the last chunk has been read, and a
// mismatch is a refusal then: the caller must use nothing it made of the chunks before the end is
// reached without one (snapshot-store.ts keeps the model it builds to itself until then).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestHead } from '../snapshot/manifest.ts';
import { SnapshotRefused } from '../snapshot/verify-snapshot.ts';

/** Bytes a chunk holds (the last one fewer). */
export const CHUNK_BYTES = 4 << 20;

export interface VerifiedChunks {
  /** the next chunk, a buffer of its own (transferable); undefined once the whole file is read and verified */
  next(): Uint8Array | undefined;
}

export function readVerifiedChunks(dir: string, name: string, head: ManifestHead, chunkBytes = CHUNK_BYTES): VerifiedChunks {
  const record = head.files[name];
  if (!record) throw new SnapshotRefused(`the manifest does not record ${name}`);
  const path = join(dir, name);
  const refusalOf = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    return new SnapshotRefused(code === 'ENOENT' ? `${name} is missing` : `${name} cannot be read (${code ?? 'read error'})`);
  };
  // the file is opened for each chunk, so a reader dropped halfway (its worker ended) holds no descriptor
  const readAt = (chunk: Uint8Array, position: number): number => {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      throw refusalOf(error);
    }
    try {
      let filled = 0;
      while (filled < chunk.length) {
        const n = readSync(fd, chunk, filled, chunk.length - filled, position + filled);
        if (n === 0) break;
        filled += n;
      }
      return filled;
    } catch (error) {
      throw refusalOf(error);
    } finally {
      closeSync(fd);
    }
  };
  const hash = createHash('sha256');
  let read = 0;
  let ended = false;
  return {
    next() {
      if (ended) return undefined;
      try {
        // one byte more than the recorded size may be asked for: a file that grew is refused
        const chunk = new Uint8Array(Math.max(1, Math.min(chunkBytes, record.size + 1 - read)));
        const filled = readAt(chunk, read);
        read += filled;
        if (read > record.size) throw new SnapshotRefused(`${name} holds more than the ${record.size} bytes the manifest records (changed)`);
        if (filled === 0) {
          ended = true;
          if (read !== record.size) throw new SnapshotRefused(`${name} holds ${read} bytes, not the ${record.size} the manifest records (truncated or partly copied)`);
          if (hash.digest('hex') !== record.sha256) throw new SnapshotRefused(`${name} does not match the SHA-256 the manifest records (damaged or changed)`);
          return undefined;
        }
        const bytes = filled === chunk.length ? chunk : chunk.slice(0, filled);
        hash.update(bytes);
        return bytes;
      } catch (error) {
        ended = true;
        throw error;
      }
    },
  };
}
