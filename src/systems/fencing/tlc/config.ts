import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FencingBounds, Pod } from '../state.js';
import { TlcOutputError } from '../../../tlc/errors.js';

/** The one spec and its base config, relative to the project root. */
export const SPEC_PATH = 'tla/fencing/RedisClusterFencingMigration.tla';
export const BASE_CONFIG_PATH = 'tla/fencing/RedisClusterFencingMigration.cfg';

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function sha256Text(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface CfgSummary {
  readonly bounds: FencingBounds;
  readonly invariants: readonly string[];
  /** The named guards/effects the config drops (constant Dropped). */
  readonly dropped: readonly string[];
}

/**
 * Reads what a TLC config of this spec fixes: `Pods = {p1, ...}`, `MaxGen = n`,
 * `Dropped = {"..."}` and the INVARIANT(S) list. Throws TlcOutputError on a config it cannot read.
 */
export function readCfg(text: string, where = 'config'): CfgSummary {
  const body = text.replace(/\\\*.*$/gm, '').replace(/\(\*[\s\S]*?\*\)/g, '');
  const pods = /\bPods\s*=\s*\{([^}]*)\}/.exec(body);
  const maxGen = /\bMaxGen\s*=\s*(\d+)/.exec(body);
  const dropped = /\bDropped\s*=\s*\{([^}]*)\}/.exec(body);
  if (!pods || !maxGen) throw new TlcOutputError(`${where}: cannot find Pods = {..} and MaxGen = n`);
  const podList = pods[1]!
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!podList.every((p) => /^p\d+$/.test(p))) throw new TlcOutputError(`${where}: Pods must be model values p1, p2, ...`);
  const invariants: string[] = [];
  const inv = /\bINVARIANTS?\b([\s\S]*?)(?=\n\s*[A-Z_]{4,}\b(?!_)|$)/.exec(body);
  if (inv) invariants.push(...inv[1]!.split(/\s+/).filter((s) => /^[A-Za-z_]\w*$/.test(s)));
  return {
    bounds: { pods: podList as Pod[], maxGen: Number(maxGen[1]) },
    invariants,
    dropped: dropped
      ? dropped[1]!
          .split(',')
          .map((s) => s.trim().replace(/^"|"$/g, ''))
          .filter(Boolean)
      : [],
  };
}
