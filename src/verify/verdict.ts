import { failingCells } from '../report/matrix.js';
import type { MutationMatrix, StageOutcome, VerifyVerdict } from '../report/verify-doc.js';

/**
 * verify's verdict. Exit 1 when a stage failed or errored, a mutant was not killed, or a stage did not
 * run and --allow-not-run did not name it; exit 2 when no stage ran at all (nothing held, nothing
 * failed: "could not run"); otherwise 0.
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
  const ran = outcomes.some((o) => o.status === 'passed' || o.status === 'failed' || o.status === 'error');
  if (reasons.length > 0) return { exitCode: 1, status: 'failed', reasons, waived };
  if (!ran) return { exitCode: 2, status: 'not-run', reasons: ['no stage ran: nothing was checked'], waived };
  return { exitCode: 0, status: 'passed', reasons: [], waived };
}
