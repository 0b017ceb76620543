// Whether the compiled CLI in .build/ is exactly the sources' (docs/decisions.md, "A build users never see").
// Plain JavaScript: the bin asks this before it loads any TypeScript, on every start (a few ms).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The folder scripts/build.mjs compiles into, under the project root (git-ignored). */
export const BUILD_DIR = '.build';
/** Its record of every source it compiled: path → [mtimeMs, size]. Written last, so a build cut short has none. */
export const STAMP_FILE = 'stamp.json';
/** The folders whose TypeScript the CLI loads at run time (tests are not compiled: vitest runs the sources). */
export const SOURCE_ROOTS = ['src', 'models', 'properties', 'mutants', 'bench'];
/** Files that change what the build makes, though they are not compiled themselves. */
export const BUILD_INPUTS = ['tsconfig.json', 'scripts/build.mjs', 'bin/build-state.mjs'];

/** A TypeScript module the build compiles: not a declaration file, not a test. */
export const isCompiled = (name) => /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') && !/\.test\.(ts|mts)$/.test(name);

/** Project-relative paths of every compiled source, sorted. */
export function compiledSources(root) {
  const out = [];
  // A plain walk: readdirSync's `recursive` costs twice as much on Node 20, and this runs on every start.
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return; // a root that is not there (a trimmed copy) compiles nothing
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(`${rel}/${e.name}`);
      else if (e.isFile() && isCompiled(e.name)) out.push(`${rel}/${e.name}`);
    }
  };
  for (const top of SOURCE_ROOTS) walk(top);
  return out.sort();
}

/** What the stamp records for the sources as they are now. */
export function sourceStamp(root) {
  const files = {};
  for (const rel of [...compiledSources(root), ...BUILD_INPUTS]) {
    try {
      const s = statSync(join(root, rel));
      files[rel] = [s.mtimeMs, s.size];
    } catch {
      files[rel] = null;
    }
  }
  return files;
}

/**
 * Why the build cannot run these sources, or null when it can: no build, or a source added,
 * removed, or changed since (any change of mtime or size, earlier or later: a checkout of an older
 * commit counts too). Content rewritten with its old mtime and size kept is the one change missed.
 */
export function staleReason(root) {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(join(root, BUILD_DIR, STAMP_FILE), 'utf8')).files;
  } catch {
    return 'no build (scripts/setup makes it)';
  }
  const now = sourceStamp(root);
  const names = Object.keys(now);
  if (names.length !== Object.keys(recorded ?? {}).length) return 'a source was added or removed since the build';
  for (const rel of names) {
    const a = now[rel];
    const b = recorded[rel];
    if (b === undefined) return `${rel} is newer than the build`;
    if (a === null || b === null ? a !== b : a[0] !== b[0] || a[1] !== b[1]) return `${rel} changed since the build`;
  }
  return null;
}
