// JSON text written as UTF-8 straight into one buffer, reused from answer to answer: what a list
// answer's body is written into item by item (src/api/paging.ts), instead of its resources made,
// walked for memoised values, stringified piece by piece, counted and written into a zero-filled
// buffer by the generic serialiser (lib/serialise.ts serialiseBytes). docs/performance.md, "The
// first list answers, fifteenth round".

// The buffer is zero-filled when made (once, or when it grows): it is reused, so that costs nothing
// an answer, and no byte of it was ever memory this writer did not write or clear.
export class JsonOut {
  #bytes: Buffer;
  #at = 0;

  constructor(bytes = 64 * 1024) {
    this.#bytes = Buffer.alloc(bytes);
  }

  /** Starts a new text (what was written before is dropped). */
  reset(): this {
    this.#at = 0;
    return this;
  }

  /** Room for `more` bytes after what is written (the buffer doubled as needed, what is written kept). */
  #room(more: number): Buffer {
    const need = this.#at + more;
    if (need > this.#bytes.length) {
      const larger = Buffer.alloc(Math.max(need, 2 * this.#bytes.length));
      this.#bytes.copy(larger, 0, 0, this.#at);
      this.#bytes = larger;
    }
    return this.#bytes;
  }

  /** Appends JSON text as it is (a string of JSON: already escaped). */
  text(json: string): void {
    // a UTF-16 code unit is at most 3 bytes of UTF-8
    this.#at += this.#room(3 * json.length).write(json, this.#at);
  }

  /** A copy of what was written, in a buffer of its own (the one written into is reused). */
  take(): Buffer {
    return Buffer.copyBytesFrom(this.#bytes, 0, this.#at);
  }
}

/** The one writer of answers' bodies on the serving thread: answers are written one at a time, synchronously. */
export const answerOut = new JsonOut();
