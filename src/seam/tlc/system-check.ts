/**
 * TLC for a system on the seam (src/systems/): its spec with its base config, the reachable states
 * read through the system's own mapping (dumpToSystemKeys), and each manifest entry of the system at
 * the tla layer (the entry's `layers.tla.config`), judged as fencing's mutants are (mutant-judge.ts).
 * The evidence records are src/seam/evidence.ts's.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { projectRoot } from '../../core/project-root.js';
import { baseSystemEvidence, dumpToSystemKeys, mutantSystemEvidence, type SystemEvidence } from '../evidence.js';
import type { AnySystem } from '../../registry/systems.js';
import type { TlaTrace } from '../../core/trace-format.js';
import { judgeMutant, mutantResult, runConfig, type CheckOptions } from './mutant-judge.js';
import type { TlcRun } from '../../tlc/run.js';
import { toTlaTrace } from '../../tlc/to-itf.js';

export interface SystemBaseCheck {
  readonly run: TlcRun;
  readonly evidence: SystemEvidence;
  /** Sorted canonical keys of every reachable state (when TLC finished without a violation). */
  readonly states?: readonly string[];
  readonly trace?: TlaTrace;
}

export interface SystemMutantCheck {
  readonly result: MutantResult;
  readonly evidence: SystemEvidence;
  /** TLC's counterexample as a `system: "tla"` trace (shown by `trace show`). */
  readonly trace?: TlaTrace;
}

/** The base config, dumping every reachable state. */
export async function checkSystemBase(sys: AnySystem, opts: CheckOptions): Promise<SystemBaseCheck> {
  const root = opts.root ?? projectRoot;
  const run = await runConfig(sys.spec, sys.config, opts, root, 'states');
  const { evidence, states } = baseSystemEvidence(sys, run, root);
  const trace = run.kind === 'completed' ? toTlaTrace(run.result, basename(sys.spec)) : undefined;
  return { run, evidence, ...(states && { states }), ...(trace && { trace }) };
}

/**
 * One entry's config (TypeOK and the expected invariant alone, as the config lists), run without a
 * dump as its evidence records. Only a survivor runs again with `-dump`: the same states as the base
 * make it `equivalent`.
 */
export async function checkSystemMutant(sys: AnySystem, m: MutantEntry, opts: CheckOptions & { baseStates?: readonly string[] }): Promise<SystemMutantCheck> {
  const root = opts.root ?? projectRoot;
  const config = m.layers.tla?.config;
  if (!config) throw new Error(`${m.id}: the manifest names no tla config`);
  const run = await runConfig(sys.spec, config, opts, root, 'none');
  const { baseStates } = opts;
  const { verdict, reason } = await judgeMutant(
    run,
    m,
    baseStates && {
      base: baseStates,
      states: async () => {
        const again = await runConfig(sys.spec, config, opts, root, 'states');
        return again.kind === 'completed' && again.result.outcome === 'ok' && again.dumpText !== undefined ? dumpToSystemKeys(sys, again.dumpText) : undefined;
      },
    },
  );
  const r = run.kind === 'completed' ? run.result : undefined;
  const trace = r ? toTlaTrace(r, basename(sys.spec)) : undefined;
  const result = mutantResult(m, run, verdict, { ...(r?.violated !== undefined && { violated: r.violated, traceLength: r.trace.length }), ...(reason !== undefined && { reason }) });
  const evidence = mutantSystemEvidence(sys, { id: m.id, target: m.target, expected: m.expectedInvariant }, config, run, root);
  return { result, evidence, ...(trace && { trace }) };
}

/**
 * The variants of an entry: `<dir>/<id>-<Invariant>.cfg` beside its config, the same mutant with
 * another invariant checked alone (tla/failover/mutants/R1-Inv_SingleAuthority.cfg: R1 breaks T1
 * too). Each is a pseudo-entry `<id>-<Invariant>` expecting that invariant; it is evidence, not a
 * manifest row.
 */
export function entryVariants(m: MutantEntry, root = projectRoot): MutantEntry[] {
  const config = m.layers.tla?.config;
  if (!config) return [];
  const dir = dirname(config);
  if (!existsSync(join(root, dir))) return [];
  const prefix = `${m.id}-`;
  return readdirSync(join(root, dir))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.cfg'))
    .sort()
    .map((f) => {
      const id = basename(f, '.cfg');
      return { ...m, id, expectedInvariant: id.slice(prefix.length), layers: { tla: { config: `${dir}/${f}` } } };
    });
}
