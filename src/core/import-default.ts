import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_DIR, projectRoot, runningFromBuild } from './project-root.js';

const TYPESCRIPT = /\.(ts|mts|cts)$/;
let tsxRegistered = false;

/**
 * What to import for `path` in this process. From the sources, the file itself (tsx or vitest
 * transpiles it). From the compiled CLI, a patch of the project (mutants/…) is its compiled copy in
 * .build/, so it shares the modules the CLI runs (one clock, one class); any other TypeScript file
 * (a user's --patch) loads through tsx, registered on first use: a start pays for tsx only when it loads one.
 */
async function moduleUrl(path: string): Promise<string> {
  if (!runningFromBuild || !TYPESCRIPT.test(path)) return pathToFileURL(path).href;
  const rel = relative(projectRoot, path);
  const compiled = resolve(
    projectRoot,
    BUILD_DIR,
    rel.replace(TYPESCRIPT, (ext) => ext.replace('ts', 'js')),
  );
  if (!rel.startsWith('..') && existsSync(compiled)) return pathToFileURL(compiled).href;
  if (!tsxRegistered) {
    const { register } = await import('tsx/esm/api');
    register();
    tsxRegistered = true;
  }
  return pathToFileURL(path).href;
}

/**
 * The default export of a module given by path (a mutant's patch file, a --patch option), resolved
 * against `root`. The caller checks its shape; a module that cannot be loaded rejects with its error.
 */
export async function importDefault(file: string, root: string): Promise<unknown> {
  return ((await import(await moduleUrl(resolve(root, file)))) as { default?: unknown }).default;
}
