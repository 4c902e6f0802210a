// The types of build-bundle.mjs (plain JavaScript: scripts/build.mjs imports it without loading Node's type stripping).
export declare const BUILD_BUNDLES_DIR: string;
export declare const CURRENT_BUNDLE_FILE: string;
export declare function sha256Of(bytesOrFile: string | Uint8Array): string;
export declare function sourceCodeId(root: string): string;
export declare function bundleChoice(root: string, entry: 'build' | 'run-build'): { file: string } | { reason: string };
export declare function currentBundle(root: string, entry: 'build' | 'run-build'): string | undefined;
