// Writes /sdk.d.ts: the SDK's TypeScript declarations, generated from the same source as the
// bundles (src/sdk/index.ts and what it exports), for both builds — the global `VideoPlatform`
// of /sdk.js and the module /sdk.mjs (`declare module '*/sdk.mjs'`). One file with no imports:
// the API resource types, which the source takes from the server's zod schemas, are written out
// in full, so a consumer needs nothing but this file.
import ts from 'typescript';
import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const ENTRY = resolve('src/sdk/index.ts');
const PROTOCOL = resolve('src/player/protocol.ts');

/** The declaration emit of the SDK's own files (and the protocol's), keyed by source file name. */
function emitDeclarations(program: ts.Program): Map<string, string> {
  const emitted = new Map<string, string>();
  program.emit(undefined, (fileName, text) => {
    emitted.set(fileName.replace(/\.d\.ts$/, '.ts'), text);
  }, undefined, true);
  return emitted;
}

const VALUE_KINDS = new Set([ts.SyntaxKind.VariableStatement, ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.ClassDeclaration]);

function nameOf(statement: ts.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const [declaration] = statement.declarationList.declarations;
    return declaration && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  }
  const named = statement as ts.Statement & { name?: ts.Identifier };
  return named.name?.text;
}

/** A declaration as a member of the namespace: exported, without `declare` (implicit there). */
function asMember(text: string): string {
  const body = text.replace(/^(export\s+)?(declare\s+)?/, '');
  return `export ${body}`;
}

export function buildSdkTypes(): string {
  const config = ts.getParsedCommandLineOfConfigFile(resolve('tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('build-sdk: cannot read tsconfig.json');
  const options: ts.CompilerOptions = { ...config.options, noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: resolve('dist/.sdk-types') };
  const program = ts.createProgram([ENTRY], options);
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY)!;
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(entry)!);
  const exportedNames = new Set(exported.map((s) => s.name));
  const emitted = emitDeclarations(program);

  const members: string[] = [];
  const declared = new Set<string>();
  // The SDK's own files and the protocol, in dependency order; others (the server's schemas) are written out below.
  const sources = [PROTOCOL, ...['src/sdk/origin.ts', 'src/sdk/client.ts', 'src/sdk/embed.ts', 'src/sdk/index.ts'].map((f) => resolve(f))];
  for (const source of sources) {
    const wanted = relative(process.cwd(), source).replace(/^src\//, '');
    const text = [...emitted].find(([name]) => name.endsWith(`/${wanted}`))?.[1];
    if (text === undefined) throw new Error(`build-sdk: no declarations emitted for ${source}`);
    const file = ts.createSourceFile(source, text, ts.ScriptTarget.Latest, true);
    for (const statement of file.statements) {
      if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) continue;
      const name = nameOf(statement);
      if (name === undefined || declared.has(name)) continue;
      // a type taken from a zod schema (z.infer<...>) is written out in full below
      if (ts.isTypeAliasDeclaration(statement) && /\bz\./.test(statement.type.getText(file))) continue;
      // values the bundles do not export are not there at run time; the protocol's message types are its internals
      if ((VALUE_KINDS.has(statement.kind) || source === PROTOCOL) && !exportedNames.has(name)) continue;
      declared.add(name);
      const comment = text.slice(statement.getFullStart(), statement.getStart(file)).trim();
      members.push(`${comment ? `${comment}\n` : ''}${asMember(text.slice(statement.getStart(file), statement.getEnd()))}`);
    }
  }
  // Types the SDK re-exports from elsewhere (the API resources, from zod), written out in full.
  const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias | ts.NodeBuilderFlags.MultilineObjectLiterals | ts.NodeBuilderFlags.IgnoreErrors;
  const printer = ts.createPrinter({ removeComments: false });
  for (const symbol of exported) {
    if (declared.has(symbol.name)) continue;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (symbol.name === 'version') {
      const type = checker.getTypeOfSymbolAtLocation(target, entry);
      members.push(`/** The API description's version. */\nexport const version: ${checker.typeToString(type)};`);
    } else if (target.flags & ts.SymbolFlags.Type) {
      const type = checker.getDeclaredTypeOfSymbol(target);
      const node = checker.typeToTypeNode(type, undefined, flags);
      if (!node) throw new Error(`build-sdk: cannot write out the type ${symbol.name}`);
      members.push(`export type ${symbol.name} = ${printer.printNode(ts.EmitHint.Unspecified, node, entry)};`);
    } else {
      throw new Error(`build-sdk: cannot declare ${symbol.name}`);
    }
    declared.add(symbol.name);
  }
  const missing = [...exportedNames].filter((name) => !declared.has(name));
  if (missing.length > 0) throw new Error(`build-sdk: exported but not declared: ${missing.join(', ')}`);

  const body = members.join('\n\n').replace(/^/gm, '  ');
  return `// The browser SDK's TypeScript declarations (docs/embeds.md), generated from its source by
// npm run build:app. /sdk.js defines the global \`VideoPlatform\`; /sdk.mjs exports the same names:
//   /// <reference path="./sdk.d.ts" />                                 (the global)
//   import { embed } from 'https://videos.example/sdk.mjs';            (the module)
declare namespace VideoPlatform {
${body}
}

declare module '*/sdk.mjs' {
  export = VideoPlatform;
}
`;
}

export function writeSdkTypes(path: string): number {
  const text = buildSdkTypes();
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}
