/**
 * The systems stage: every system's model layer judged against TLC's committed evidence — its twin
 * explored, its state set and graph equal to TLC's, every mutant killed as TLC kills it.
 * `fencecheck systems` runs this and prints the report.
 */
import { ManifestError } from '../core/manifest.js';
import { StageInputError } from '../core/stage.js';
import { stageReport, type StageReport } from '../core/stage-report.js';
import { checkSystem, overall, type SystemCheck } from '../seam/check.js';
import { selectSystemNames } from '../registry/select.js';
import { SYSTEMS } from '../registry/systems.js';

export async function systemsStage(input: { readonly systems?: readonly string[] } = {}): Promise<StageReport> {
  const names = selectSystemNames(input.systems);
  const startedAt = new Date();
  const checks: SystemCheck[] = [];
  try {
    for (const n of names) checks.push(await checkSystem(await SYSTEMS[n]!()));
  } catch (err) {
    if (err instanceof ManifestError) throw new StageInputError(err.message);
    throw err;
  }
  const status = overall(checks);
  const summary = checks.map((c) => `${c.system}: ${c.status} (${c.distinct} states, ${c.rows.filter((r) => r.check.startsWith('mutant')).length} mutants)`).join('; ');
  const counts = Object.fromEntries(
    checks.flatMap((c) => [
      [`${c.system}.states`, c.distinct],
      [`${c.system}.generated`, c.generated],
    ]),
  );
  const notRun = checks.flatMap((c) => c.rows.filter((r) => r.status === 'not-run').map((r) => `${c.system} ${r.check}: ${r.detail}`));
  return stageReport({
    stage: 'systems',
    status,
    ...(status === 'not-run' ? { reason: notRun.join('; ') } : status === 'failed' ? { reason: summary } : {}),
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    counts,
    details: { systems: checks },
  });
}
