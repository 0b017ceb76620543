/**
 * A user's own implementation patch given by file (`conform --patch FILE`, `mutants --patch FILE`):
 * the record a trace keeps of it (path and SHA-256, src/core/trace-format.ts TracePatch), and the
 * check a replay makes before applying it. A system's tour or impl runner loads the module itself
 * (its own patch type); this only says which file, and that it is still the same file.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
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
