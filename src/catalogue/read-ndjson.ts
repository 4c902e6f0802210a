// Reads an NDJSON file, plain or gzipped, into numbered lines. Splits on "\n" only: real catalogues
// hold raw U+2028 inside strings, which line readers built for text would split on.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

export function readNdjsonLines(path: string): NumberedLine[] {
  let bytes = readFileSync(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const text = bytes.toString('utf8');
  const lines: NumberedLine[] = [];
  let start = 0;
  for (let n = 1; start <= text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let raw = text.slice(start, end);
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    if (raw.trim() !== '') lines.push({ line: n, text: raw });
    start = end + 1;
  }
  return lines;
}
