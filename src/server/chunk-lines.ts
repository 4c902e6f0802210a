// The lines of a file that comes a chunk at a time (verified-chunks.ts), each decoded on its own: a
// line may span chunks (split at a newline byte, which never falls inside a UTF-8 character), and
// no string or buffer of the whole file is made. Only the unfinished end of a chunk is kept (a
// copy), so each chunk can be let go once its lines are taken.

export interface ChunkLines {
  /** the lines `chunk` completes, in order */
  of(chunk: Uint8Array): Generator<string>;
  /** the last line, when the file does not end with a newline */
  end(): string | undefined;
}

export function chunkLines(): ChunkLines {
  let carry: Buffer | undefined;
  return {
    *of(chunk) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      let start = 0;
      if (carry) {
        const end = bytes.indexOf(10);
        if (end === -1) {
          carry = Buffer.concat([carry, bytes]);
          return;
        }
        const line = Buffer.concat([carry, bytes.subarray(0, end)]).toString('utf8');
        carry = undefined;
        start = end + 1;
        yield line;
      }
      for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
        const line = bytes.toString('utf8', start, end);
        start = end + 1;
        yield line;
      }
      if (start < bytes.length) carry = Buffer.from(bytes.subarray(start));
    },
    end() {
      const last = carry?.toString('utf8');
      carry = undefined;
      return last;
    },
  };
}
