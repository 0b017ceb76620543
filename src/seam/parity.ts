/**
 * State-set parity of a ModelSystem against TLC: the twin's reachable canonical keys against a
 * committed canonical state list (TLC's dump, parsed through the system's own `fromTlc` and `key`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from '../core/project-root.js';
import { compareStateSets as compareKeySets } from './state-sets.js';
import { TlcOutputError } from '../tlc/errors.js';

export interface StateSetParity {
  readonly equal: boolean;
  readonly modelCount: number;
  readonly tlcCount: number;
  readonly onlyModelCount: number;
  readonly onlyTlcCount: number;
  /** The first differences of each side (sorted), at most `show` each. */
  readonly onlyModel: readonly string[];
  readonly onlyTlc: readonly string[];
}

/** The one comparison (src/seam/state-sets.ts), in the seam's words (model, not machine). */
export function compareStateSets(model: Iterable<string>, tlc: Iterable<string>, show = 5): StateSetParity {
  const c = compareKeySets(model, tlc, show);
  return { equal: c.equal, modelCount: c.machineCount, tlcCount: c.tlcCount, onlyModelCount: c.onlyMachineCount, onlyTlcCount: c.onlyTlcCount, onlyModel: c.onlyMachine, onlyTlc: c.onlyTlc };
}

/** A committed canonical state list (one key a line, sorted, no duplicates); throws TlcOutputError otherwise. */
export function readCanonicalStateList(path: string): string[] {
  const lines = readFileSync(resolve(projectRoot, path), 'utf8').split('\n').filter((l) => l !== '');
  for (let i = 1; i < lines.length; i++) {
    if (!(lines[i - 1]! < lines[i]!)) throw new TlcOutputError(`${path}: line ${i + 1} is not sorted after line ${i} (or repeats it)`);
  }
  if (lines.length === 0) throw new TlcOutputError(`${path}: no states`);
  return lines;
}
