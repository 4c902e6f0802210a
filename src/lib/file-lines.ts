// Reading a large text file line by line without holding it whole: the build's previous manifest
// and a snapshot's model data are hundreds of megabytes.
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The lines of a text file, read a megabyte at a time (no string of the whole file is held). */
export function* fileLines(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.allocUnsafe(1 << 20);
    let rest = '';
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const text = rest + decoder.write(chunk.subarray(0, read));
      const lines = text.split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    rest += decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}
