// The types of build-bundle.mjs (plain JavaScript: scripts/build.mjs imports it without loading Node's type stripping).
export declare const BUILD_BUNDLE_DIR: string;
export declare const BUNDLED_FROM_FILE: string;
export declare function fileSha256(file: string): string;
export declare function sourceCodeId(root: string): string;
export declare function currentBundle(root: string, entry: 'build' | 'run-build'): string | undefined;
