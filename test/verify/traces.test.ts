/**
 * A run's counterexample traces live under its `--out` (mutant traces always went to
 * <checkout>/reports/traces/, whatever --out said). verify gives its stages FENCECHECK_TRACE_DIR =
 * <out>/traces, and every trace writer saves there: the model mutant layer (through a real verify),
 * the conformance tour, the property runs and the TLC mutant runs (each command with the variable
 * set, as verify runs it). Real processes, real Valkey and TLC where the writer needs them.
 */
import { loadManifest } from '../../src/core/manifest.js';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { shownPath, traceDir } from '../../src/core/trace-dir.js';
import type { StageReport } from '../../src/core/stage-report.js';
import type { VerifyReport } from '../../src/report/verify-doc.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { runCli } from './run-cli.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = ownedTempDir('traces');
  made.push(d);
  return d;
}

describe('the trace folder', () => {
  it('is FENCECHECK_TRACE_DIR when set (relative from the working folder), else reports/traces', () => {
    expect(traceDir({})).toBe(resolve(projectRoot, 'reports/traces'));
    expect(traceDir({ FENCECHECK_TRACE_DIR: '' })).toBe(resolve(projectRoot, 'reports/traces'));
    expect(traceDir({ FENCECHECK_TRACE_DIR: '/tmp/x/traces' })).toBe('/tmp/x/traces');
    expect(traceDir({ FENCECHECK_TRACE_DIR: 'rel/traces' })).toBe(resolve('rel/traces'));
    // Named relative to the project root inside it, absolute outside it.
    expect(shownPath(join(projectRoot, 'reports/traces/a.json'))).toBe('reports/traces/a.json');
    expect(shownPath('/tmp/x/traces/a.json')).toBe('/tmp/x/traces/a.json');
  });
});

describe('traces under --out', () => {
  it('verify --stages mutants:model --out DIR: every trace is in DIR/traces/, named so, and linked from the reports', async () => {
    const out = tmp();
    const r = await runCli(['verify', '--stages', 'mutants:model', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as VerifyReport;
    const model = doc.mutationMatrix.rows.filter((row) => row.cells.model.tracePath !== undefined);
    // Every model mutant saves its exploration path, whatever its system (trace/2).
    const ids = loadManifest()
      .mutants.filter((m) => m.layers.model !== undefined)
      .map((m) => m.id);
    expect(model.map((row) => row.id)).toEqual(ids);
    expect(doc.traces).toHaveLength(ids.length);
    for (const t of doc.traces) {
      expect(t.startsWith(`${join(out, 'traces')}/`), t).toBe(true);
      expect(existsSync(t), t).toBe(true);
    }
    expect(doc.stages[0]!.report!.mutants!.find((m) => m.id === 'M1')!.tracePath).toBe(join(out, 'traces/model-M1.json'));
    // The reports in DIR draw them (each trace embedded once, its matrix cell linked to it).
    const html = readFileSync(join(out, 'verify.html'), 'utf8');
    expect(html.match(/<details class="trace"/g)).toHaveLength(ids.length);
    expect(html).toContain(`<strong>${join(out, 'traces/model-M1.json')}</strong>`);
  }, 120_000);

  it('conform --mutant M1 saves its first mismatch in FENCECHECK_TRACE_DIR', async () => {
    const dir = join(tmp(), 'traces');
    const r = await runCli(['conform', '--mutant', 'M1', '--json'], { FENCECHECK_TRACE_DIR: dir });
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as StageReport<{ replay: string }>;
    expect(report.traces).toEqual([join(dir, 'conform-M1-Inv_SingleAuthority.json')]);
    expect(report.details!.replay).toBe(`fencecheck trace replay ${join(dir, 'conform-M1-Inv_SingleAuthority.json')}`);
    expect(existsSync(report.traces![0]!)).toBe(true);
  }, 120_000);

  it('props --mutant M1 saves its counterexample in FENCECHECK_TRACE_DIR', async () => {
    const dir = join(tmp(), 'traces');
    const r = await runCli(['props', '--mutant', 'M1', '--topology', 'standalone', '--runs', '100', '--seed', '487102356', '--json'], { FENCECHECK_TRACE_DIR: dir });
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as StageReport;
    expect(report.traces).toHaveLength(1);
    expect(report.traces![0]!.startsWith(`${dir}/props-M1-487102356-`)).toBe(true);
    expect(existsSync(report.traces![0]!)).toBe(true);
  }, 120_000);

  const located = locateTlc();
  const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
  it.skipIf(!located.ok)(
    `tlc --only M1 saves TLC's counterexample in FENCECHECK_TRACE_DIR${why}`,
    async () => {
      const dir = join(tmp(), 'traces');
      const r = await runCli(['tlc', '--only', 'M1', '--json'], { FENCECHECK_TRACE_DIR: dir });
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as StageReport;
      expect(report.mutants!.map((m) => [m.id, m.verdict, m.tracePath])).toEqual([['M1', 'killed', join(dir, 'tla-M1.trace.json')]]);
      expect(report.traces).toEqual([join(dir, 'tla-M1.trace.json')]);
      expect(existsSync(join(dir, 'tla-M1.trace.json'))).toBe(true);
    },
    180_000,
  );
});
