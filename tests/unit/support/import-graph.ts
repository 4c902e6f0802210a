// Reads which source file imports which (static imports, `export … from`, `import()` and
// type-only imports alike: a type dependency is still a dependency) and checks them against the
// layer order of docs/architecture.md, "Layers". Used by tests/unit/layers.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** the importing file, relative to the source root, with `/` separators */
  readonly from: string;
  readonly to: string;
  readonly line: number;
}

const SOURCE = /\.(ts|mts|astro)$/;

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** An .astro file's imports live in its frontmatter, between the first two `---` lines. */
function codeOf(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.astro')) return text;
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  return match ? match[1]! : '';
}

/** Every import between files under `root` (packages and node: modules are left out). */
export function readImportGraph(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const toKey = (path: string) => relative(root, path).split(sep).join('/');
  for (const file of sourceFiles(root)) {
    const code = codeOf(file);
    const info = ts.preProcessFile(code, true, true);
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), ref.fileName);
      const line = code.slice(0, ref.pos).split('\n').length;
      edges.push({ from: toKey(file), to: toKey(target), line });
    }
  }
  return edges;
}

/** The layer a file belongs to: its first directory under the source root, or its own name at the root. */
export function unitOf(key: string): string {
  const slash = key.indexOf('/');
  return slash === -1 ? key.replace(/\.(ts|mts|astro)$/, '') : key.slice(0, slash);
}

/**
 * Imports that point up the layer order: `layers` lists groups of units from the bottom; a file
 * may import its own unit and any unit of its own or a lower group.
 */
export function upwardImports(edges: readonly ImportEdge[], layers: readonly (readonly string[])[]): string[] {
  const rank = new Map<string, number>();
  layers.forEach((group, n) => group.forEach((unit) => rank.set(unit, n)));
  const problems: string[] = [];
  for (const edge of edges) {
    const from = unitOf(edge.from);
    const to = unitOf(edge.to);
    if (from === to) continue;
    const a = rank.get(from);
    const b = rank.get(to);
    if (a === undefined) problems.push(`${edge.from}: its unit "${from}" has no place in the layer order`);
    else if (b === undefined) problems.push(`${edge.from}:${edge.line} imports ${edge.to}, whose unit "${to}" has no place in the layer order`);
    else if (b > a) problems.push(`${edge.from}:${edge.line} imports ${edge.to}: ${from} may not depend on ${to}, a higher layer`);
  }
  return [...new Set(problems)];
}

/** Every import cycle between files, each as the files around it (Tarjan's strongly connected components). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (!next.has(edge.from)) next.set(edge.from, []);
    next.get(edge.from)!.push(edge.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (next.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}
