import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A path given on the command line that is not there (or not readable): bad input, reported with the rest. */
export interface MissingPath {
  readonly path: string;
  readonly message: string;
}

/** The `.lua` files under each path (a file is taken as it is, whatever its name), sorted, each once; a folder without any is bad input (a gate that checks nothing must not pass). */
export function luaFiles(paths: readonly string[]): { files: string[]; missing: MissingPath[] } {
  const files = new Set<string>();
  const missing: MissingPath[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.lua')) files.add(p);
    }
  };
  for (const p of paths) {
    try {
      const st = statSync(p);
      if (st.isDirectory()) {
        const before = files.size;
        walk(p);
        if (files.size === before) missing.push({ path: p, message: `no .lua files under ${p}` });
      } else if (st.isFile()) files.add(p);
      else missing.push({ path: p, message: `${p} is not a regular file` }); // a FIFO would block the read
    } catch (err) {
      missing.push({ path: p, message: `cannot read ${p} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
    }
  }
  return { files: [...files], missing };
}
