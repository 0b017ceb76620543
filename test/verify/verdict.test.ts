/**
 * verify's verdict fed cell by cell: in each layer (tla, model, impl, limiter), one mutant survived,
 * invalid, timed out or not run (the rest killed), the stage's output interpreted exactly as verify
 * interprets a child's, then the matrix and the verdict built as `runVerify` builds them. Every such
 * cell fails verify naming the cell; `--allow-not-run <stage>` turns only the not-run cell into an
 * allowed one; a mutant missing from its stage's results fails too.
 */
import { describe, expect, it } from 'vitest';
import { LAYERS, mutantsFor, type Layer } from '../../src/core/manifest.js';
import { fixtureManifest } from '../report/fixtures.js';
import type { MutantResult, Verdict } from '../../src/core/verdict.js';
import { junitXml } from '../../src/report/junit.js';
import { mutationMatrix } from '../../src/report/matrix.js';
import { stageReport } from '../../src/core/stage-report.js';
import { VERIFY_SCHEMA, type StageOutcome, type VerifyReport } from '../../src/report/verify-doc.js';
import { interpretStage } from '../../src/verify/interpret.js';
import { FALLBACK_OF_LAYER, STAGE_OF_LAYER } from '../../src/verify/stages.js';
import { verifyVerdict } from '../../src/verify/verdict.js';

const manifest = fixtureManifest();
const at = '2026-12-01T00:00:00.000Z';

/**
 * What the layer's stage prints and exits with: `fencecheck mutants --json` prints the result array and
 * exits 1 when a mutant that ran was not killed, else 0 — also when one was lost mid-run (not-run);
 * `tlc --mutants --json` prints a StageReport (failed, exit 1; not run, exit 2).
 */
function stageOutput(layer: Layer, results: MutantResult[]): { stdout: string; exitCode: number } {
  const notKilled = results.filter((r) => r.verdict !== 'killed' && r.verdict !== 'not-run');
  if (layer !== 'tla') return { stdout: JSON.stringify(results), exitCode: notKilled.length > 0 ? 1 : 0 };
  const status = notKilled.length > 0 ? 'failed' : results.some((r) => r.verdict === 'not-run') ? 'not-run' : 'passed';
  const report = stageReport({
    stage: 'tlc-mutants',
    status,
    ...(status !== 'passed'
      ? {
          reason: `not killed: ${results
            .filter((r) => r.verdict !== 'killed')
            .map((r) => `${r.id} ${r.verdict}`)
            .join(', ')}`,
        }
      : {}),
    startedAt: at,
    durationMs: 10,
    summary: 'base: ok; mutants',
    mutants: results,
  });
  return { stdout: JSON.stringify(report), exitCode: status === 'passed' ? 0 : status === 'failed' ? 1 : 2 };
}

/** Every mutant of `layer` killed, except `target` with `verdict` (or left out, for `missing`). */
function layerResults(layer: Layer, target: string, verdict: Verdict | 'missing'): MutantResult[] {
  return mutantsFor(manifest, layer).flatMap((m): MutantResult[] => {
    const base = { id: m.id, layer, expectedInvariant: m.expectedInvariant };
    if (m.id !== target) return [{ ...base, verdict: 'killed', violated: m.expectedInvariant }];
    if (verdict === 'missing') return [];
    return [{ ...base, verdict, reason: `${m.id} ${verdict} in the fake run` }];
  });
}

function verifyOf(layer: Layer, results: MutantResult[], allowNotRun: readonly string[] = []): VerifyReport {
  const stage = STAGE_OF_LAYER[layer];
  const { stdout, exitCode } = stageOutput(layer, results);
  const outcome: StageOutcome = interpretStage({
    stage,
    command: [stage, '--json'],
    allowedNotRun: allowNotRun.includes(stage),
    timeoutMs: 60_000,
    child: { exitCode, signal: null, stdout, stderr: '', startedAt: at, durationMs: 10, timedOut: false, leftoverProcesses: 0 },
  });
  const outcomes = [outcome];
  const matrix = mutationMatrix(manifest, outcomes, STAGE_OF_LAYER, FALLBACK_OF_LAYER);
  return {
    schema: VERIFY_SCHEMA,
    tool: { name: 'fencecheck', version: 'test' },
    startedAt: at,
    finishedAt: at,
    durationMs: 10,
    host: { node: process.version, platform: process.platform, arch: process.arch, cpus: 1 },
    git: null,
    options: { stages: [stage], notSelected: [], allowNotRun: [...allowNotRun], jobs: 1, stageTimeoutMs: 60_000, out: 'reports' },
    verdict: verifyVerdict(outcomes, matrix),
    stages: outcomes,
    tlc: [],
    mutationMatrix: matrix,
    traces: [],
  };
}

const CELLS = ['survived', 'invalid', 'timeout', 'not-run'] as const;
const cellLine = (id: string, layer: Layer, verdict: (typeof CELLS)[number]) =>
  verdict === 'not-run'
    ? `mutant ${id} at layer ${layer}: not run: ${id} not-run in the fake run (pass --allow-not-run ${STAGE_OF_LAYER[layer]} to accept)`
    : `mutant ${id} at layer ${layer}: ${verdict}: ${id} ${verdict} in the fake run`;

describe('verify verdict, cell by cell in every layer', () => {
  for (const layer of LAYERS) {
    const ids = mutantsFor(manifest, layer).map((m) => m.id);
    // A mutant in the middle of the list: the layer ran others before and after it.
    const target = ids[Math.floor(ids.length / 2)]!;
    const stage = STAGE_OF_LAYER[layer];

    it(`${layer}: every mutant killed passes (the control)`, () => {
      const r = verifyOf(layer, layerResults(layer, '', 'killed'));
      expect(r.verdict).toMatchObject({ exitCode: 0, status: 'passed', reasons: [], waived: [] });
    });

    for (const verdict of CELLS) {
      it(`${layer}: ${target} ${verdict} fails verify naming the cell`, () => {
        const r = verifyOf(layer, layerResults(layer, target, verdict));
        expect(r.mutationMatrix.rows.find((row) => row.id === target)!.cells[layer]).toMatchObject({ verdict, stage });
        expect(r.verdict.exitCode).toBe(1);
        expect(r.verdict.reasons).toContain(cellLine(target, layer, verdict));
        // JUnit: the cell's testcase is a failure or an error, never skipped or passed.
        const xml = junitXml(r);
        const cell = new RegExp(`classname="fencecheck\\.mutants\\.${layer}" name="${target} [^"]*"[^>]*>\\n\\s*<(failure|error) message="([^"]*)"`).exec(xml);
        expect(cell, `JUnit case of ${target} at ${layer}`).not.toBeNull();
        if (verdict === 'not-run')
          expect(xml).toMatch(
            `name="every selected stage ran (or is named by --allow-not-run)" time="0.000">\n      <failure message="not run and not allowed: ${stage}, mutant ${target} at layer ${layer}"/>`,
          );
      });

      it(`${layer}: --allow-not-run ${stage} allows ${target} ${verdict} only if it is not-run`, () => {
        const r = verifyOf(layer, layerResults(layer, target, verdict), [stage]);
        const xml = junitXml(r);
        const junitCell = new RegExp(`classname="fencecheck\\.mutants\\.${layer}" name="${target} [^"]*"[^>]*>\\n\\s*<(\\w+) message="([^"]*)"`).exec(xml);
        if (verdict === 'not-run') {
          expect(r.verdict).toMatchObject({ exitCode: 0, status: 'passed', reasons: [] });
          expect(r.verdict.waived).toContain(`mutant ${target} at layer ${layer} not run (allowed): ${target} not-run in the fake run`);
          expect(junitCell?.[1]).toBe('skipped');
          expect(junitCell?.[2]).toBe(`not run (allowed): ${target} not-run in the fake run`);
        } else {
          expect(r.verdict.exitCode).toBe(1);
          expect(r.verdict.reasons).toContain(cellLine(target, layer, verdict));
          expect(r.verdict.waived.join('\n')).not.toContain(target);
          expect(junitCell?.[1]).toMatch(/^(failure|error)$/);
        }
      });
    }

    it(`${layer}: a mutant missing from ${stage}'s results fails verify naming it, --allow-not-run or not`, () => {
      for (const allow of [[], [stage]]) {
        const r = verifyOf(layer, layerResults(layer, target, 'missing'), allow);
        expect(r.verdict.exitCode).toBe(1);
        expect(r.verdict.reasons.join('\n')).toMatch(new RegExp(`^mutant ${target} at layer ${layer}: missing: stage ${stage} passed but reported no result for ${target}$`, 'm'));
      }
    });
  }

  it('names several not-run mutants of one stage and reason on one line', () => {
    const results = layerResults('impl', '', 'killed').map((r) =>
      ['M5', 'M6'].includes(r.id) ? { ...r, verdict: 'not-run' as const, violated: undefined, reason: 'could not run: connection lost' } : r,
    );
    const r = verifyOf('impl', results);
    expect(r.stages[0]).toMatchObject({ status: 'not-run', summary: '20/22 mutants killed; not run: M5, M6: could not run: connection lost' });
    expect(r.verdict.reasons).toEqual([
      'stage mutants:impl not run: could not run: connection lost (exit code 0) (pass --allow-not-run mutants:impl to accept)',
      'mutants M5, M6 at layer impl: not run: could not run: connection lost (pass --allow-not-run mutants:impl to accept)',
    ]);
  });
});
