/**
 * The conform stage's report that the impl layer writes for verify (BaseReports): it covers every
 * system with a tour, and a system whose unpatched tour nobody ran is a not-run part — never a pass.
 * (Seen: with pause's tour registered, the served conform stage passed on fencing's tour alone.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageReport, type StageReport } from '../../src/core/stage-report.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { BaseReports } from '../../src/mutants/base-reports.js';

const passed = (summary: string): StageReport => stageReport({ stage: 'conform', status: 'passed', startedAt: new Date().toISOString(), durationMs: 1, summary, counts: { states: 1 } });

describe('the conform report the impl layer serves', () => {
  it('is not run when a system with a tour gave none, naming it; passes when every one did', () => {
    const some = new BaseReports();
    some.add('conform', 'fencing', passed('fencing held'));
    some.complete('conform', ['fencing', 'pause']);
    const r = some.report('conform')!;
    expect(r.status).toBe('not-run');
    expect(r.reason).toMatch(/pause: the impl layer ran no unpatched tour of pause/);
    expect(r.summary).toMatch(/^fencing: fencing held; pause: conform not run/);

    const all = new BaseReports();
    all.add('conform', 'fencing', passed('fencing held'));
    all.add('conform', 'pause', passed('pause held'));
    all.complete('conform', ['fencing', 'pause']);
    expect(all.report('conform')!.status).toBe('passed');
    const file = join(ownedTempDir('base-reports'), 'conform.json');
    expect(all.write('conform', file)).toBe(true);
    expect(existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as StageReport).status).toBe('passed');
  });
});
