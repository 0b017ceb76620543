import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The default export of a module given by path (a mutant's patch file, a --patch option), resolved
 * against `root`. The caller checks its shape; a module that cannot be loaded rejects with its error.
 */
export async function importDefault(file: string, root: string): Promise<unknown> {
  return ((await import(pathToFileURL(resolve(root, file)).href)) as { default?: unknown }).default;
}
