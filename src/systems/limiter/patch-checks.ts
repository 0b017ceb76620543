/**
 * A user's limiter patch judged by the limiter's ordinary impl checks together (src/seam/patch-checks.ts):
 * the property against the reference model and the required invariant tests, per topology. A
 * failed property names its check (decision, state, …), a failed invariant test its name; a fault
 * is not run. What `limiter --patch FILE` and `mutants --patch FILE --system limiter` judge by.
 */
import { loadPatchModule } from '../../seam/patch-file.js';
import { checksRun, type ChecksRun, type PatchChecks } from '../../seam/patch-checks.js';
import { asInfrastructureFault, describeFault } from '../../valkey/fault.js';
import { startTopology, ValkeyUnavailableError, type TopologySpec } from '../../valkey/index.js';
import type { ProviderChoice } from '../../valkey/start.js';
import { replayHint, runLimiterProperty } from '../../../properties/limiter/property.js';
import { runInvariants } from '../../../properties/limiter/invariants.js';
import type { LimiterPatch } from './patch.js';
import type { LimiterTopology, TopologyRun } from './report.js';

export const LIMITER_PATCH_TYPE = 'a LimiterPatch ({ transformSource?, wrapCall? })';

export function isLimiterPatch(x: unknown): x is LimiterPatch {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  const fn = (k: string) => p[k] === undefined || typeof p[k] === 'function';
  return fn('transformSource') && fn('wrapCall') && (p.transformSource !== undefined || p.wrapCall !== undefined);
}

const SPECS: Readonly<Record<LimiterTopology, TopologySpec>> = { standalone: { kind: 'standalone' }, cluster: { kind: 'cluster', shards: 3 } };

export interface LimiterRunOptions {
  readonly numRuns: number;
  readonly seed?: number;
  readonly path?: string;
  readonly patch?: LimiterPatch;
  readonly provider?: ProviderChoice;
  readonly invariants: boolean;
  readonly onCase?: (n: number) => void;
  readonly log?: (line: string) => void;
}

/** The property and (unless told not to) the invariant tests on one topology the harness starts and stops; a fault makes it not-run. */
export async function runLimiterOn(name: LimiterTopology, o: LimiterRunOptions): Promise<TopologyRun> {
  let topology;
  try {
    topology = await startTopology(SPECS[name], o.provider ? { provider: o.provider } : {});
  } catch (err) {
    if (!(err instanceof ValkeyUnavailableError)) throw err;
    return { topology: name, status: 'not-run', reason: err.message };
  }
  try {
    o.log?.(`[${name}] property: ${o.numRuns} generated cases…`);
    const property = await runLimiterProperty({
      topology,
      numRuns: o.numRuns,
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      ...(o.path !== undefined ? { path: o.path } : {}),
      ...(o.patch ? { patch: o.patch } : {}),
      ...(o.onCase ? { onCase: o.onCase } : {}),
    });
    if (property.fault) return { topology: name, status: 'not-run', reason: describeFault(property.fault), fault: property.fault };
    if (!o.invariants) return { topology: name, status: 'ran', property };
    o.log?.(`[${name}] invariant tests…`);
    const invariants = await runInvariants(topology, undefined, o.patch);
    const f = invariants.find((i) => i.fault)?.fault;
    if (f) return { topology: name, status: 'not-run', reason: describeFault(f), fault: f };
    return { topology: name, status: 'ran', property, invariants };
  } catch (err) {
    const f = asInfrastructureFault(err);
    if (!f) throw err;
    return { topology: name, status: 'not-run', reason: describeFault(f.fault), fault: f.fault };
  } finally {
    await topology.stop();
  }
}

/** The runs of the limiter's checks as one ChecksRun: the first failed check of the first topology that failed, by name. */
export function limiterChecksRun(runs: readonly TopologyRun[], patchFile?: string): ChecksRun {
  const notRun = runs.filter((r) => r.status === 'not-run');
  let failure: { check: string; message: string } | null = null;
  let replay: string | undefined;
  for (const r of runs) {
    if (r.property && !r.property.passed && !r.property.fault) {
      failure = { check: r.property.violated ?? 'property', message: `[${r.topology}] ${r.property.message ?? r.property.violated}` };
      replay = `fencecheck limiter --topology ${r.topology} ${replayHint(r.property)}${patchFile ? ` --patch ${patchFile}` : ''}`;
      break;
    }
    const inv = r.invariants?.find((i) => i.status === 'failed');
    if (inv) {
      failure = { check: inv.name, message: `[${r.topology}] ${inv.detail}` };
      break;
    }
  }
  const cases = runs.reduce((n, r) => n + (r.property?.numRuns ?? 0), 0);
  const tests = runs.reduce((n, r) => n + (r.invariants?.length ?? 0), 0);
  const ranOn = runs.filter((r) => r.status === 'ran').map((r) => r.topology);
  return checksRun({
    failure,
    notRun: notRun.length > 0 && failure === null ? notRun.map((r) => `${r.topology}: ${r.reason}`).join('; ') : null,
    summary: `${cases} property cases and ${tests} invariant tests on ${ranOn.join('+') || 'no topology'}`,
    ...(replay !== undefined ? { replay } : {}),
  });
}

/** The limiter's checks for `mutants --patch FILE --system limiter`: standalone, as its impl layer runs its mutants. */
export const limiterPatchChecks: PatchChecks = {
  patchType: LIMITER_PATCH_TYPE,
  isPatch: isLimiterPatch,
  async run(opts) {
    const patch = opts.patch ? await loadPatchModule(opts.patch.path, isLimiterPatch, LIMITER_PATCH_TYPE) : undefined;
    const run = await runLimiterOn('standalone', {
      numRuns: opts.numRuns ?? DEFAULT_PATCH_RUNS,
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(patch ? { patch } : {}),
      invariants: true,
      ...(opts.log ? { log: opts.log } : {}),
    });
    return limiterChecksRun([run], opts.patch?.path);
  },
};

/** Property cases per run of a patch judged through `mutants` (the impl layer's default for a manifest mutant). */
const DEFAULT_PATCH_RUNS = 300;
