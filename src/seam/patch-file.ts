/**
 * A user's own implementation patch given by file (`conform --patch FILE`, `mutants --patch FILE`):
 * the record a trace keeps of it (path and SHA-256, src/core/trace-format.ts TracePatch), the check
 * a replay makes before applying it, and the one loader every command and system uses: a recorded
 * path (or a manifest entry's) resolves from the checkout, one base folder for all of them.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { importDefault } from '../core/import-default.js';
import { projectRoot } from '../core/project-root.js';
import type { MutantEntry } from '../core/manifest.js';
import type { TracePatch } from '../core/trace-format.js';

/** A patch file that cannot be read, or no longer is the file a trace recorded (bad input). */
export class PatchFileError extends Error {
  override readonly name = 'PatchFileError';
}

function digest(abs: string, shown: string): string {
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new PatchFileError(`patch file ${shown} does not exist`);
  }
  if (!st.isFile()) throw new PatchFileError(`patch file ${shown} is not a regular file`);
  return createHash('sha256').update(readFileSync(abs)).digest('hex');
}

/** The absolute path of a recorded patch path (repository-relative paths resolve from the checkout). */
export function patchFilePath(path: string): string {
  return isAbsolute(path) ? path : resolve(projectRoot, path);
}

/**
 * The record of the patch file `file` (resolved from `cwd`): repository-relative when inside the
 * checkout, else absolute, so the trace replays from another working directory.
 */
export function patchFileRecord(file: string, cwd = process.cwd()): TracePatch {
  const abs = resolve(cwd, file);
  const rel = relative(projectRoot, abs);
  const path = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
  return { path, sha256: digest(abs, file) };
}

/** The absolute path of a recorded patch that is still the file recorded; PatchFileError otherwise. */
export function verifiedPatchFile(rec: TracePatch): string {
  const abs = patchFilePath(rec.path);
  const now = digest(abs, rec.path);
  if (now !== rec.sha256) throw new PatchFileError(`patch file ${rec.path} changed since the trace was made (sha256 ${now.slice(0, 12)}…, the trace recorded ${rec.sha256.slice(0, 12)}…)`);
  return abs;
}

/**
 * The patch module at `path` (a recorded patch's path or a manifest entry's `layers.impl.patch`:
 * repository-relative or absolute), its default export checked by the system's `isPatch`.
 * PatchFileError (one line) when it cannot be loaded or is no patch of the system.
 */
export async function loadPatchModule<P>(path: string, isPatch: (x: unknown) => x is P, patchType: string): Promise<P> {
  let loaded: unknown;
  try {
    loaded = await importDefault(patchFilePath(path), projectRoot);
  } catch (err) {
    const why = String((err as Error).message ?? err).split('\n')[0]!;
    // Node reads a .ts file with no "type": "module" package above it as CommonJS.
    const hint = /require\(\) ES Module|Cannot use import statement|exports is not defined/.test(why)
      ? ' (an ES module outside this checkout: name it .mts or .mjs, or put a package.json with "type": "module" beside it)'
      : '';
    throw new PatchFileError(`patch file ${path} cannot be loaded: ${why}${hint}`);
  }
  if (!isPatch(loaded)) throw new PatchFileError(`${path} default-exports ${moduleShape(loaded)}, not ${patchType}`);
  return loaded;
}

/** The default export of a patch module, unchecked (which system's patch is it?); PatchFileError when it cannot be loaded. */
export async function loadPatchExport(path: string): Promise<unknown> {
  return loadPatchModule(path, (x: unknown): x is unknown => true, 'anything');
}

/** What a module default-exports, in a few words (for a refusal). */
export function moduleShape(x: unknown): string {
  if (x === undefined) return 'nothing (no default export)';
  if (typeof x !== 'object' || x === null) return `a ${x === null ? 'null' : typeof x}`;
  const keys = Object.keys(x);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.join(', ')}`;
}

/** The id prefix of a user's patch run through an impl layer (no manifest id has it: those are letters and digits). */
export const USER_PATCH_PREFIX = 'patch:';

/**
 * A user's patch file as an impl-layer entry (`mutants --patch FILE`), run by its system's impl
 * runner like a manifest mutant: `expectedInvariant` is `--expect`'s, or `every` (any invariant
 * the runner checks). The path is absolute, so the runner loads it from wherever the user keeps it.
 */
export function userPatchEntry(rec: TracePatch, system: string, expectedInvariant: string): MutantEntry {
  const name = rec.path.split(/[\\/]/).pop()!;
  return {
    id: `${USER_PATCH_PREFIX}${name}`,
    system,
    target: '(user patch)',
    kind: 'effect',
    description: `the patch ${rec.path}`,
    realBug: '',
    expectedInvariant,
    layers: { impl: { patch: patchFilePath(rec.path) } },
  };
}

/** Whether an impl entry is a user's patch (its traces record the file, not a manifest id). */
export function isUserPatchEntry(m: Pick<MutantEntry, 'id'>): boolean {
  return m.id.startsWith(USER_PATCH_PREFIX);
}
