/**
 * The TLC figures of the verify document, one per model: the TLC blocks the stages' reports carry
 * (`details.tlcModels`, src/core/report-details.ts), a live run's block where TLC ran in this run,
 * else the committed evidence's — quoted only from a stage that checked it in this run (it passed
 * or failed; a stage that did not run or crashed vouches for nothing). Each gets what its recorded
 * command line's flags mean (tlc-flags.ts).
 */
import { trustedDetails } from './stage-sections.js';
import { tlcFlags } from './tlc-flags.js';
import type { StageOutcome, TlcSummary } from './verify-doc.js';

export function tlcSummary(outcomes: readonly StageOutcome[]): TlcSummary[] {
  const blocks = outcomes.filter((o) => o.status === 'passed' || o.status === 'failed').flatMap((o) => trustedDetails(o)?.tlcModels ?? []);
  const models = [...new Set(blocks.map((b) => b.model))];
  return models.map((model) => {
    const b = blocks.find((x) => x.model === model && x.from === 'live') ?? blocks.find((x) => x.model === model)!;
    const flags = b.command !== undefined ? tlcFlags(b.command) : undefined;
    return { ...b, ...(flags ? { flags } : {}) };
  });
}
