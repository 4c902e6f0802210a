// Astro's server entry imports each page's module (and a few of its own) the first time a request
// needs one. `npm run build:app` replaces those files under a running server when new code is
// deployed: a module first needed after that would be read from another build's files, or from none
// (the old chunk names are gone), and the page would answer an empty 500 until the process is
// replaced. So every module of the Astro bundle is imported once as the server starts: the process
// then runs one build's code, whole, until the next swap starts a process of the new one
// (docs/reliability.md, "New code under a running server").
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The ES modules (`.mjs`) in `dir` and its folders. */
function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.mjs'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Imports every module of the Astro bundle whose entry is `entryFile` (the entry itself already imported); how many. */
export async function loadAstroModules(entryFile: string): Promise<number> {
  const files = modulesUnder(dirname(entryFile));
  await Promise.all(files.map((file) => import(pathToFileURL(file).href)));
  return files.length;
}
