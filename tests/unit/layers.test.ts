// Dependencies point one way (docs/architecture.md, "Layers"): no import cycle between source
// files, and no import from a lower layer into a higher one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, readImportGraph, upwardImports } from './support/import-graph.ts';
import { tempDirs } from './support/fixtures.ts';

/**
 * The layer order, bottom first; a unit is a directory under src/ (or a file at its root). A file
 * may import from its own unit and from any unit of its own or a lower layer.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['lib', 'http', 'config'], // leaves: no project imports
  ['catalogue'], // records, import, the privacy choke point
  ['model'], // resources, trending, related, list indexes
  ['search'],
  ['api', 'player'], // endpoints, parameters, handlers, problems; the player script and its protocol
  ['snapshot', 'sdk', 'site'], // snapshots, the browser SDK, the site's files (sitemaps, feeds, previews, error pages)
  ['cdn', 'server', 'shared-state', 'openapi'], // the API description shows the server's real refusals (rate limits)
  ['components'],
  ['layouts'],
  ['pages', 'middleware'], // Astro, rendered by the server
];

const SRC = join(import.meta.dirname, '..', '..', 'src');

describe('the source tree', () => {
  const edges = readImportGraph(SRC);

  it('is read whole: every layer above has files that import others', () => {
    const units = new Set(edges.map((e) => e.from.split('/')[0]));
    for (const unit of ['catalogue', 'model', 'api', 'snapshot', 'server', 'pages']) expect(units).toContain(unit);
    expect(edges.length).toBeGreaterThan(300);
  });

  it('has no import cycle', () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it('imports only along the layer order', () => {
    expect(upwardImports(edges, LAYERS)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const dirs = tempDirs();
  afterAll(() => dirs.cleanup());
  const tree = (files: Record<string, string>) => {
    const root = dirs.make();
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return readImportGraph(root);
  };

  it('find a cycle through type-only imports and dynamic imports', () => {
    const edges = tree({
      'model/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
      'model/b.ts': "export const b = () => import('./c.ts');\nexport type B = 1;\n",
      'model/c.ts': "export { a } from './a.ts';\n",
      'model/d.ts': "import { b } from './b.ts';\n",
    });
    expect(importCycles(edges)).toEqual([['model/a.ts', 'model/b.ts', 'model/c.ts']]);
  });

  it('name the file and line of an import against the layer order, and a unit with no place in it', () => {
    const edges = tree({
      'model/a.ts': "// first line\nimport type { X } from '../api/x.ts';\n",
      'api/x.ts': "import { a } from '../model/a.ts';\nexport type X = 1;\n",
      'pages/p.astro': "---\nimport { a } from '../model/a.ts';\n---\n<p>{a}</p>\n",
      'stray/s.ts': "import { a } from '../model/a.ts';\n",
    });
    expect(upwardImports(edges, [['model'], ['api'], ['pages']]).sort()).toEqual([
      'model/a.ts:2 imports api/x.ts: model may not depend on api, a higher layer',
      'stray/s.ts: its unit "stray" has no place in the layer order',
    ]);
  });
});
