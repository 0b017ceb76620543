/**
 * The mutation score: killed / (mutants − equivalent), per layer and overall, in every output. A
 * cell that did not run is never a kill: it lowers the score and is named beside it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { formatMutantTable, formatMutationScore, mutantScore } from '../../src/mutants/report-table.js';
import type { MutantResult } from '../../src/core/verdict.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { mutationScore, scoreOf, scoreText } from '../../src/report/score.js';
import { buildView } from '../../src/report/view.js';
import { fixtureReport, fullReport } from './fixtures.js';

describe('mutation score', () => {
  it('killed / (total − equivalent); not run, not selected and missing count against it', () => {
    const v = (...vs: string[]) => vs.map((verdict) => ({ verdict }) as { verdict: 'killed' });
    expect(scoreOf(v('killed', 'killed', 'equivalent', 'survived', 'n/a'))).toEqual({ total: 4, killed: 2, equivalent: 1, notRun: 0, percent: 66.6 });
    expect(scoreOf(v('killed', 'not-run', 'not-selected', 'missing'))).toEqual({ total: 4, killed: 1, equivalent: 0, notRun: 3, percent: 25 });
    expect(scoreOf(v('n/a'))).toEqual({ total: 0, killed: 0, equivalent: 0, notRun: 0, percent: null });
    // 100 only when every one was killed: 199/200 is 99.5, never rounded up.
    expect(scoreOf(v(...Array<string>(199).fill('killed'), 'survived')).percent).toBe(99.5);
    expect(scoreText(scoreOf(v('killed', 'equivalent', 'not-run')))).toBe('50.0 % (1/2 killed, 1 equivalent, 1 not run)');
  });

  it('per layer and overall from the matrix: TLC not run here is 0 killed, 16 not run — never 100 %', () => {
    const s = mutationScore(fixtureReport().mutationMatrix);
    expect(s.layers.tla).toEqual({ total: 16, killed: 0, equivalent: 0, notRun: 16, percent: 0 });
    expect(s.layers.model).toEqual({ total: 16, killed: 15, equivalent: 0, notRun: 0, percent: 93.7 });
    expect(s.overall).toEqual({ total: 54, killed: 15, equivalent: 0, notRun: 38, percent: 27.7 });
    // TLC's column from the committed evidence counts: those verdicts were checked in this run.
    expect(mutationScore(fullReport().report.mutationMatrix).overall).toEqual({ total: 54, killed: 54, equivalent: 0, notRun: 0, percent: 100 });
  });

  it('HTML and Markdown: a score table under the matrix', () => {
    const view = buildView(fixtureReport(), new Map());
    const html = renderHtml(view);
    expect(html).toContain('<table id="mutation-score">');
    expect(html).toContain('<tr><td>model</td><td class="bad">93.7 %</td><td>15 / 16</td><td>0</td><td>0</td></tr>');
    expect(html).toContain('<tr><td>tla</td><td class="warn">0.0 %</td><td>0 / 16</td><td>0</td><td class="warn">16 not run</td></tr>');
    const md = renderMarkdown(view);
    expect(md).toContain('| overall | ❌ 27.7 % | 15 / 54 | 0 | ⚠️ 38 not run |');
    expect(md).toContain('Overall: 27.7 % (15/54 killed, 38 not run).');
  });

  it('fencecheck mutants: score lines below the table, per layer run and overall', () => {
    const r = (id: string, layer: MutantResult['layer'], verdict: MutantResult['verdict']): MutantResult => ({
      id,
      layer,
      verdict,
      expectedInvariant: 'Inv_SingleAuthority',
      ...(verdict === 'killed' ? { violated: 'Inv_SingleAuthority' } : { reason: 'why' }),
    });
    const results = [r('M1', 'model', 'killed'), r('M2', 'model', 'survived'), r('M1', 'impl', 'killed'), r('M2', 'impl', 'not-run'), r('M3', 'impl', 'equivalent')];
    expect(formatMutationScore(results)).toBe(
      ['mutation score model: 50.0 % (1/2 killed)', 'mutation score impl: 50.0 % (1/2 killed, 1 equivalent, 1 not run)', 'mutation score overall: 50.0 % (2/4 killed, 1 equivalent, 1 not run)'].join(
        '\n',
      ),
    );
    expect(mutantScore(results).overall.percent).toBe(50);
    expect(formatMutantTable(results)).not.toContain('mutation score');
  });

  it('the real command prints them, and --json carries them in counts and details', () => {
    const run = (...argv: string[]) =>
      spawnSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'mutants', '--layer', 'model', '--only', 'M1', ...argv], { encoding: 'utf8', timeout: 60_000 });
    const text = run();
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/\n\nmutation score model: 100\.0 % \(1\/1 killed\)\nmutation score overall: 100\.0 % \(1\/1 killed\)\n$/);
    const json = JSON.parse(run('--json').stdout) as { counts: Record<string, number>; details: { mutationScore: unknown } };
    expect(json.counts).toMatchObject({ scorePercent: 100, scoreKilled: 1, scoreCounted: 1, equivalent: 0 });
    expect(json.details.mutationScore).toEqual({
      layers: { model: { total: 1, killed: 1, equivalent: 0, notRun: 0, percent: 100 } },
      overall: { total: 1, killed: 1, equivalent: 0, notRun: 0, percent: 100 },
    });
  });
});
