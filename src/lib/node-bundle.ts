// The esbuild options of the bundles Node runs instead of the TypeScript sources: the server's
// (src/server/bundle-server.ts) and the build's (src/snapshot/bundle-build.ts; docs/architecture.md,
// "The server runs as bundled JavaScript", "The build runs as bundled JavaScript"). One ES module of
// plain JavaScript an entry point, packages left as imports resolved from node_modules, and
// tsconfig.json not read: the code is compiled as Node's type stripping runs the sources (class
// fields defined, imports kept as written, strict mode), whatever an edit to tsconfig.json would say.
import type { BuildOptions } from 'esbuild';

export const NODE_BUNDLE_OPTIONS = {
  outExtension: { '.js': '.mjs' },
  bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external',
  logLevel: 'error', charset: 'utf8',
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: true, alwaysStrict: true } },
} as const satisfies BuildOptions;
