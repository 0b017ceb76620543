// Types of bin/build-state.mjs (plain JavaScript: the bin runs it before any TypeScript loads).
export declare const BUILD_DIR: string;
export declare const STAMP_FILE: string;
export declare const SOURCE_ROOTS: readonly string[];
export declare const BUILD_INPUTS: readonly string[];
export declare function isCompiled(name: string): boolean;
export declare function compiledSources(root: string): string[];
export declare function sourceStamp(root: string): Record<string, [number, number] | null>;
export declare function staleReason(root: string): string | null;
