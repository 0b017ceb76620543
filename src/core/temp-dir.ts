import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onProcessEnd } from './process-end.js';
import { processStart, sameProcessAlive } from './process-table.js';

/**
 * Temporary folders owned by this process: `<os.tmpdir()>/fencecheck-<label>-o<pid>.<start>-XXXXXX`
 * (mkdtemp: fresh, mode 0700), removed by removeTempDir when the caller is done and, whatever
 * happens, when the process ends: a normal exit, an uncaught exception, or SIGINT/SIGTERM/SIGHUP (the
 * end hooks of src/core/process-end.ts). Only SIGKILL can leave one behind: its name says whose it
 * is (owner PID and start time), so the next reaper removes it (removeDeadOwnersTempDirs). Every temporary folder a command, a
 * benchmark or a test makes comes from here; `npm test` fails when one is left
 * (test/cleanup/global-setup.ts).
 */
const owned = new Set<string>();
let hooked = false;

const LABEL = /^[a-z0-9][a-z0-9-]{0,40}$/;

/** A fresh temporary folder of this process, removed when the process ends at the latest. */
export function ownedTempDir(label: string): string {
  if (!LABEL.test(label)) throw new RangeError(`temporary folder label '${label}': lower-case letters, digits and '-' only`);
  if (!hooked) {
    hooked = true;
    onProcessEnd({ release: removeOwnedTempDirs });
  }
  const dir = mkdtempSync(join(tmpdir(), `fencecheck-${label}-o${process.pid}.${processStart(process.pid) ?? ''}-`));
  owned.add(dir);
  return dir;
}

/** Removes a folder made by ownedTempDir now (no error if it is gone already). */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  // Only once it is gone: a folder that could not be removed is tried again at the process's end.
  owned.delete(dir);
}

/** Removes every folder this process still owns (the test setup calls it at the end of each file). */
export function removeOwnedTempDirs(): void {
  for (const dir of [...owned]) {
    try {
      removeTempDir(dir);
    } catch {
      // One folder that cannot be removed (a file of another user in it) must not keep the rest.
    }
  }
}

const OWNED_NAME = /^fencecheck-[a-z0-9][a-z0-9-]*-o(\d+)\.(\d*)-[A-Za-z0-9]{6}$/;

/**
 * Removes the folders ownedTempDir made in this TMPDIR for a process that is dead now (a SIGKILLed
 * command): real folders of our uid whose name gives a dead owner. Returns their paths.
 */
export function removeDeadOwnersTempDirs(): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return removed;
  }
  const me = process.getuid?.();
  for (const name of names) {
    const m = OWNED_NAME.exec(name);
    if (!m || sameProcessAlive(Number(m[1]), m[2] === '' ? undefined : m[2])) continue;
    const dir = join(tmpdir(), name);
    try {
      const st = lstatSync(dir);
      if (!st.isDirectory() || (me !== undefined && st.uid !== me)) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      /* gone meanwhile, or not removable: left for the next reaper */
    }
  }
  return removed;
}
