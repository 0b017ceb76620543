import type { LayerRunner } from '../../seam/layer-runner.js';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { writeTraceFile } from '../../core/trace-dir.js';
import { SYSTEMS, type AnySystem } from '../../registry/systems.js';
import { TlcOutputError, TlcUnavailableError } from '../../tlc/errors.js';
import { locateTlc, type TlcTools } from '../../tlc/locate.js';
import { checkSystemBase, checkSystemMutant } from '../../seam/tlc/system-check.js';

/**
 * The TLA+ layer: each mutant is its entry's tla config (one named guard/effect dropped via the
 * spec's Dropped constant), checked by TLC with TypeOK and its expected invariant alone, against its
 * system's spec. Each spec's base config runs first so that a survivor can be recognised as equivalent.
 */
export const runner: LayerRunner = {
  layer: 'tla',
  async unavailable() {
    const found = locateTlc();
    return found.ok ? null : found.reason;
  },
  async run(mutants, options) {
    const found = locateTlc();
    if (!found.ok) return mutants.map((m) => ({ id: m.id, layer: 'tla', verdict: 'not-run', expectedInvariant: m.expectedInvariant, reason: found.reason }));
    const log = options.log ?? (() => {});
    const saveTrace = (id: string, trace: unknown): string => writeTraceFile(trace, `tla-${id}.trace.json`, options.traceDir);
    const bySystem = new Map<string, MutantEntry[]>();
    for (const m of mutants) bySystem.set(m.system, [...(bySystem.get(m.system) ?? []), m]);
    const results = new Map<string, MutantResult>();
    for (const [system, entries] of bySystem) {
      const load = SYSTEMS[system];
      if (!load) {
        for (const m of entries) results.set(m.id, { id: m.id, layer: 'tla', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason: `system ${system} has no TLA+ spec` });
        continue;
      }
      const done: MutantResult[] = [];
      try {
        await runSystem(await load(), entries, found.tools, log, saveTrace, (r) => done.push(r));
      } catch (err) {
        // TLC vanished or spoke gibberish mid-run: the remaining mutants are invalid, said why.
        if (!(err instanceof TlcUnavailableError || err instanceof TlcOutputError)) throw err;
        for (const m of entries.slice(done.length)) {
          done.push({ id: m.id, layer: 'tla', verdict: err instanceof TlcUnavailableError ? 'not-run' : 'invalid', expectedInvariant: m.expectedInvariant, reason: err.message });
        }
      }
      for (const r of done) results.set(r.id, r);
    }
    return mutants.map((m) => results.get(m.id)!);
  },
};

/** One system's base config (for equivalence), then each of its entries. */
async function runSystem(
  sys: AnySystem,
  entries: readonly MutantEntry[],
  tools: TlcTools,
  log: (l: string) => void,
  saveTrace: (id: string, trace: unknown) => string,
  push: (r: MutantResult) => void,
): Promise<void> {
  const base = await checkSystemBase(sys, { tools });
  log(`[tla] ${sys.name} base: ${base.evidence.outcome}, ${base.evidence.distinct ?? '?'} distinct states`);
  for (const m of entries) {
    const checked = await checkSystemMutant(sys, m, { tools, ...(base.graph && { baseStates: base.graph.states }) });
    const tracePath = checked.trace ? saveTrace(m.id, checked.trace) : undefined;
    log(`[tla] ${m.id}: ${checked.result.verdict}`);
    push({ ...checked.result, ...(tracePath && { tracePath }), replay: `fencecheck tlc --system ${sys.name} --only ${m.id}` });
  }
}
