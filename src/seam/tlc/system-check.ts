/**
 * TLC for any system on the seam: its spec with its base config, dumping the labelled state graph
 * (read through the system's own mapping: graph.ts), and each manifest entry of the system at the
 * tla layer (the entry's `layers.tla.config`), judged by mutant-judge.ts: killed only by the
 * expected invariant checked alone with TypeOK; a survivor with the base's very states is
 * equivalent. The records are src/seam/evidence.ts's.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { projectRoot } from '../../core/project-root.js';
import type { Trace } from '../../core/trace-format.js';
import { formatTlaValue } from '../../core/tla-value.js';
import { TlcOutputError } from '../../tlc/errors.js';
import type { TlcRun } from '../../tlc/run.js';
import type { TlcResult } from '../../tlc/tool-output.js';
import { ModelPatchError, mutatedSystem } from '../model-patch.js';
import { tlcTrace } from '../trace.js';
import { baseSystemEvidence, mutantSystemEvidence, type SystemEvidence } from '../evidence.js';
import type { AnySystem } from '../package.js';
import { dotToGraph, dumpToSystemKeys, type StateGraph } from './graph.js';
import { judgeMutant, mutantResult, runConfig, type CheckOptions } from './mutant-judge.js';

export type { CheckOptions };

export interface SystemBaseCheck {
  readonly run: TlcRun;
  readonly evidence: SystemEvidence;
  /** The labelled state graph, when TLC finished without a violation. */
  readonly graph?: StateGraph;
  /** base.edges.txt's text for `graph`. */
  readonly edgesText?: string;
  readonly trace?: Trace;
}

export interface SystemMutantCheck {
  readonly result: MutantResult;
  readonly evidence: SystemEvidence;
  readonly trace?: Trace;
}

/** The base config with its labelled state graph. */
export async function checkSystemBase(sys: AnySystem, opts: CheckOptions): Promise<SystemBaseCheck> {
  const root = opts.root ?? projectRoot;
  const run = await runConfig(sys.spec, sys.config, opts, root, 'graph');
  let graph: StateGraph | undefined;
  if (run.kind === 'completed' && run.result.outcome === 'ok') {
    if (run.dotText === undefined) throw new TlcOutputError(`${sys.name}: the base run left no state graph`);
    graph = dotToGraph(sys, run.dotText);
  }
  const { evidence, edgesText } = baseSystemEvidence(sys, run, graph, root);
  const trace = run.kind === 'completed' ? tlcTrace(sys, run.result) : undefined;
  return { run, evidence, ...(graph && { graph }), ...(edgesText !== undefined && { edgesText }), ...(trace && { trace }) };
}

/** The invariants of the system the last state of TLC's trace breaks, other than `violated` (unreadable: none). */
function alsoBrokenAtEnd(sys: AnySystem, r: TlcResult): string[] {
  const last = r.trace.at(-1);
  if (!last || r.violated === undefined) return [];
  try {
    const s = sys.fromTlc(last.vars);
    return Object.entries(sys.invariants)
      .filter(([n, inv]) => n !== r.violated && !inv(s))
      .map(([n]) => n);
  } catch (err) {
    if (err instanceof TlcOutputError) return [];
    throw err;
  }
}

/** The entry's mutated twin (its model patch), which explains the steps of its TLC trace; the system itself when it has none. */
async function mutantTwin(sys: AnySystem, m: MutantEntry): Promise<AnySystem> {
  if (!m.layers.model?.patch) return sys;
  try {
    return await mutatedSystem(sys, m);
  } catch (err) {
    if (err instanceof ModelPatchError) return sys;
    throw err;
  }
}

/**
 * One entry's config (TypeOK and the expected invariant alone, as the config lists), run without a
 * dump. Only a survivor runs again with `-dump`: the same states as the base make it `equivalent`.
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
  // An entry judged off the base config (its constants, which its config sets too) is read there.
  const at = m.constants && sys.withConstants ? sys.withConstants(m.constants) : sys;
  // A variant (`R1-Inv_SingleAuthority`, entryVariants) is its manifest entry's mutant.
  const trace = r ? tlcTrace(at, r, { mutant: m.id.replace(/-.*$/, ''), twin: await mutantTwin(at, m) }) : undefined;
  const alsoBroken = r ? alsoBrokenAtEnd(at, r) : [];
  const fields = {
    verdict,
    ...(r?.violated !== undefined && { violated: r.violated, traceLength: r.trace.length }),
    ...(alsoBroken.length > 0 && { alsoBroken }),
    ...(reason !== undefined && { reason }),
  };
  const result = mutantResult(m, run, verdict, fields);
  const tlcStates = r && r.trace.length > 0 ? r.trace.map((step) => Object.fromEntries(Object.entries(step.vars).map(([k, v]) => [k, formatTlaValue(v)]))) : undefined;
  const evidence = mutantSystemEvidence(sys, m, config, run, { ...fields, ...(trace && { trace }), ...(tlcStates && { tlcStates }) }, root);
  return { result, evidence, ...(trace && { trace }) };
}

/**
 * The variants of an entry: `<dir>/<id>-<Invariant>.cfg` beside its config, the same mutant with
 * another invariant checked alone (e.g. the failover model's R1-Inv_SingleAuthority.cfg: R1 breaks
 * T1 too). Each is a pseudo-entry `<id>-<Invariant>` expecting that invariant; it is evidence, not a
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
