import { failingCells, notRunCells } from '../report/matrix.js';
import type { MutationMatrix, StageOutcome, VerifyVerdict } from '../report/verify-doc.js';

/**
 * verify's verdict. Exit 1 when a stage failed or errored, a mutant was not killed, or a stage — or a
 * mutant its stage reported not run — did not run and --allow-not-run did not name the stage; exit 2
 * when no stage ran at all (nothing held, nothing failed: "could not run"); otherwise 0.
 */
export function verifyVerdict(outcomes: readonly StageOutcome[], matrix: MutationMatrix): VerifyVerdict {
  const reasons: string[] = [];
  const waived: string[] = [];
  for (const o of outcomes) {
    if (o.status === 'failed') reasons.push(`stage ${o.stage} failed: ${o.reason ?? o.summary}`);
    else if (o.status === 'error') reasons.push(`stage ${o.stage} did not complete: ${o.reason ?? o.summary}`);
    else if (o.status === 'not-run') {
      if (o.allowedNotRun) waived.push(`stage ${o.stage} not run (allowed): ${o.reason ?? ''}`.trim());
      else reasons.push(`stage ${o.stage} not run: ${o.reason ?? 'no reason given'} (pass --allow-not-run ${o.stage} to accept)`);
    }
    if (o.leftoverProcesses > 0) reasons.push(`stage ${o.stage} left ${o.leftoverProcesses} process(es) running after it exited (killed by verify)`);
  }
  for (const { id, layer, cell } of failingCells(matrix)) {
    // A failed mutant stage already fails verify; name each mutant too, so the reason is specific.
    reasons.push(`mutant ${id} at layer ${layer}: ${cell.verdict}${cell.violated ? ` (${cell.violated})` : ''}${cell.reason ? `: ${cell.reason}` : ''}`);
  }
  // A mutant its stage reported not run (lost mid-run) is never a pass: it fails unless that stage is
  // named by --allow-not-run, and is listed either way, one line per stage and reason.
  const groups = new Map<string, { ids: string[]; layer: string; stage: string; reason: string; allowed: boolean; crashed: boolean }>();
  for (const { id, layer, cell, allowed } of notRunCells(matrix, outcomes)) {
    const reason = cell.reason ?? 'no reason given';
    const key = JSON.stringify([layer, cell.stage, reason, allowed]);
    const crashed = outcomes.find((o) => o.stage === cell.stage)?.status === 'error';
    const g = groups.get(key) ?? { ids: [], layer, stage: cell.stage, reason, allowed, crashed };
    g.ids.push(id);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    const who = `${g.ids.length === 1 ? 'mutant' : 'mutants'} ${g.ids.join(', ')} at layer ${g.layer}`;
    if (g.allowed) waived.push(`${who} not run (allowed): ${g.reason}`);
    else reasons.push(`${who}: not run: ${g.reason}${g.crashed ? '' : ` (pass --allow-not-run ${g.stage} to accept)`}`);
  }
  // A mutant stage lost mid-run is not-run, yet checked the mutants it reported a verdict for.
  const ran = outcomes.some((o) => o.status === 'passed' || o.status === 'failed' || o.status === 'error' || (o.report?.mutants ?? []).some((m) => m.verdict !== 'not-run'));
  if (reasons.length > 0) return { exitCode: 1, status: 'failed', reasons, waived };
  if (!ran) return { exitCode: 2, status: 'not-run', reasons: ['no stage ran: nothing was checked'], waived };
  return { exitCode: 0, status: 'passed', reasons: [], waived };
}
