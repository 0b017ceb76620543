import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The extension of the bench's own modules: `.ts` run from the sources, `.js` run from the build
 * that setup compiles into .build/. A package's bench module is looked up with it, so the compiled
 * bench finds bench/<package>/census.js where the sources have census.ts.
 */
export const MODULE_EXT = extname(fileURLToPath(import.meta.url));

/** Loads bench/<package>/<base> (with this run's extension) when the package has one. */
export async function importPackageModule<T>(packageName: string, base: string): Promise<T | undefined> {
  const file = join(import.meta.dirname, packageName, `${base}${MODULE_EXT}`);
  return existsSync(file) ? ((await import(pathToFileURL(file).href)) as T) : undefined;
}
