import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { LayerRunner } from '../layer-runner.js';
import type { MutantResult } from '../verdict.js';
import { projectRoot } from '../../project-root.js';
import { checkBase, checkMutant } from '../../tlc/check.js';
import { TlcOutputError, TlcUnavailableError } from '../../tlc/errors.js';
import { locateTlc } from '../../tlc/locate.js';

/**
 * The TLA+ layer: each mutant is its tla/mutants/Mx.cfg (one named guard/effect dropped via the
 * spec's Dropped constant), checked by TLC with TypeOK and its expected invariant alone.
 * The base config runs first so that a survivor can be recognised as equivalent.
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
    const traceDir = resolve(projectRoot, options.traceDir ?? 'reports/traces');
    const opts = { tools: found.tools };
    const results: MutantResult[] = [];
    try {
      const base = await checkBase(opts);
      log(`[tla] base: ${base.evidence.outcome}, ${base.evidence.distinct ?? '?'} distinct states`);
      for (const m of mutants) {
        const checked = await checkMutant(m, { ...opts, ...(base.states && { baseStates: base.states }) });
        let tracePath: string | undefined;
        if (checked.trace) {
          mkdirSync(traceDir, { recursive: true });
          const file = join(traceDir, `tla-${m.id}.trace.json`);
          writeFileSync(file, `${JSON.stringify(checked.trace, null, 2)}\n`);
          tracePath = relative(projectRoot, file);
        }
        log(`[tla] ${m.id}: ${checked.result.verdict}`);
        results.push({ ...checked.result, ...(tracePath && { tracePath }) });
      }
    } catch (err) {
      // TLC vanished or spoke gibberish mid-run: the remaining mutants are invalid, said why.
      if (!(err instanceof TlcUnavailableError || err instanceof TlcOutputError)) throw err;
      for (const m of mutants.slice(results.length)) {
        results.push({ id: m.id, layer: 'tla', verdict: err instanceof TlcUnavailableError ? 'not-run' : 'invalid', expectedInvariant: m.expectedInvariant, reason: err.message });
      }
    }
    return results;
  },
};
