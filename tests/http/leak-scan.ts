// Finds ids that must never be served inside response bodies or snapshot files. Bodies are split
// into id-like tokens (runs of A-Z a-z 0-9 _ -), so `/watch/ID"` and `"ID"` both count, while an
// id that merely begins another (`talk` inside `talk-2`) does not.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';

const SEPARATORS = /[^A-Za-z0-9_-]+/;
const PLAIN = /^[A-Za-z0-9_-]+$/;

export class LeakScanner {
  private readonly tokens = new Set<string>();
  private readonly texts: string[] = [];

  add(bytes: Buffer | string, where = ''): void {
    const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
    for (const token of text.split(SEPARATORS)) if (token !== '') this.tokens.add(token);
    this.texts.push(where === '' ? text : `${where}\n${text}`);
  }

  /** The needles found; a needle with other characters (e.g. `.`) is searched as a substring. */
  find(needles: Iterable<string>): string[] {
    const found: string[] = [];
    for (const needle of needles) {
      const hit = PLAIN.test(needle) ? this.tokens.has(needle) : this.texts.some((t) => t.includes(needle));
      if (hit) found.push(needle);
    }
    return found;
  }

  /** Where a needle occurs, for a failure message. */
  locate(needle: string): string {
    for (const text of this.texts) {
      const i = text.indexOf(needle);
      if (i >= 0) return `${text.slice(0, text.indexOf('\n') === -1 ? 80 : Math.min(text.indexOf('\n'), 200))} … ${text.slice(Math.max(0, i - 80), i + needle.length + 80)}`;
    }
    return '(not located)';
  }
}

/** Every file under `dir` as bytes, with gzip files also decompressed, and every file name. */
export function scanTree(dir: string, scanner: LeakScanner): number {
  let files = 0;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      scanner.add(relative(dir, path), 'file name');
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) {
        const bytes = readFileSync(path);
        files++;
        scanner.add(bytes, path);
        if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
          try {
            scanner.add(gunzipSync(bytes), `${path} (gunzipped)`);
          } catch {
            // not a whole gzip file after all
          }
        }
      }
    }
  };
  walk(dir);
  return files;
}
