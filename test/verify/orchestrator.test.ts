/**
 * The verify orchestrator against real child processes (test/verify/fixtures/fake-stage.mjs) that
 * pass, fail, do not run, lie about their status, print garbage, crash, hang and leak a grandchild.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StageOutcome } from '../../src/report/verify-doc.js';
import type { ProgressSink } from '../../src/verify/progress.js';
import { runVerify, type VerifyRunOptions } from '../../src/verify/run.js';
import { STAGES, type Stage } from '../../src/verify/stages.js';
import { stageEntryArgv } from '../../src/core/stage.js';
import { fakeCommand, fakeStage } from './fake-stages.js';
import { isRunning } from '../../src/valkey/registry.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { expectWithin } from '../support/bounds.js';

const FAKE = resolve(import.meta.dirname, 'fixtures/fake-stage.mjs');

function spec(name: string, behaviour: string[], heavy = true, layer?: Stage['layer']): Stage {
  return fakeStage(name, behaviour, { heavy, ...(layer ? { layer } : {}) });
}

class Recorder implements ProgressSink {
  readonly events: string[] = [];
  running = 0;
  maxRunning = 0;
  planned(stages: readonly string[]) {
    this.events.push(`planned ${stages.join(',')}`);
  }
  started(stage: string) {
    this.running += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    this.events.push(`started ${stage}`);
  }
  line(stage: string, text: string) {
    this.events.push(`line ${stage} ${text}`);
  }
  finished(o: StageOutcome) {
    this.running -= 1;
    this.events.push(`finished ${o.stage} ${o.status}`);
  }
  close() {}
}

async function run(catalogue: Stage[], extra: Partial<VerifyRunOptions> = {}, env: Record<string, string> = {}) {
  const progress = new Recorder();
  const outDir = ownedTempDir('verify');
  Object.assign(process.env, env);
  const report = await runVerify({
    stages: catalogue.map((s) => s.name),
    stageOptions: {},
    allowNotRun: [],
    jobs: 2,
    stageTimeoutMs: 30_000,
    outDir,
    progress,
    catalogue,
    command: fakeCommand,
    ...extra,
  });
  return { report, progress, outDir };
}

/** Running (a zombie waiting for its reaper no longer runs). */
const alive = isRunning;

describe('verify orchestrator', () => {
  it('interprets every way a stage can end, and fails naming each problem', async () => {
    const { report, progress, outDir } = await run(
      [
        spec('a-pass', ['pass']),
        spec('b-fail', ['fail']),
        spec('c-notrun', ['notrun']),
        spec('d-placeholder', ['placeholder'], false),
        spec('e-lying', ['lying']),
        spec('f-garbage', ['garbage']),
        spec('g-crash', ['crash']),
      ],
      { allowNotRun: ['c-notrun'] },
    );
    const by = Object.fromEntries(report.stages.map((o) => [o.stage, o]));
    expect(by['a-pass']).toMatchObject({ status: 'passed', exitCode: 0, counts: { runs: 2 } });
    expect(by['b-fail']).toMatchObject({ status: 'failed', reason: 'Inv_SingleAuthority broke at step 4' });
    expect(by['c-notrun']).toMatchObject({ status: 'not-run', reason: 'no widget installed', allowedNotRun: true });
    expect(by['d-placeholder']).toMatchObject({ status: 'not-run', reason: 'this command is not built yet', allowedNotRun: false });
    expect(by['e-lying']!.status).toBe('error');
    expect(by['e-lying']!.reason).toMatch(/report says passed but the command exited 1/);
    expect(by['f-garbage']!.status).toBe('error');
    expect(by['g-crash']).toMatchObject({ status: 'error', signal: 'SIGSEGV' });
    expect(by['g-crash']!.reason).toMatch(/killed by SIGSEGV: about to crash/);

    expect(report.verdict.exitCode).toBe(1);
    const reasons = report.verdict.reasons.join('\n');
    expect(reasons).toMatch(/stage b-fail failed/);
    expect(reasons).toMatch(/stage d-placeholder not run: this command is not built yet \(pass --allow-not-run d-placeholder to accept\)/);
    expect(reasons).not.toMatch(/stage c-notrun/);
    expect(report.verdict.waived.join('\n')).toMatch(/c-notrun not run \(allowed\): no widget installed/);
    // Progress lines come through, and every stage's stderr is kept.
    expect(progress.events).toContain('line a-pass progress: run 2/2');
    expect(readFileSync(join(outDir, by['g-crash']!.logPath!), 'utf8')).toMatch(/about to crash/);
  });

  it('passes when every stage held, and says nothing ran when only allowed not-run stages were selected', async () => {
    const ok = await run([spec('a', ['pass']), spec('b', ['pass'], false)]);
    expect(ok.report.verdict).toMatchObject({ exitCode: 0, status: 'passed', reasons: [] });
    const none = await run([spec('n', ['notrun'])], { allowNotRun: ['n'] });
    expect(none.report.verdict).toMatchObject({ exitCode: 2, status: 'not-run' });
  });

  it('runs at most `jobs` heavy stages at once, light ones alongside', async () => {
    const heavy = ['h1', 'h2', 'h3', 'h4'].map((n) => spec(n, ['pass', '400']));
    const two = await run(heavy);
    expect(two.progress.maxRunning).toBe(2);
    const one = await run([...heavy.slice(0, 2), spec('light', ['pass', '400'], false)], { jobs: 1 });
    expect(one.progress.maxRunning).toBe(2);
    // With one slot, the two heavy stages ran one after the other.
    const order = one.progress.events.filter((e) => /^(started|finished) h/.test(e));
    expect(order).toEqual(['started h1', 'finished h1 passed', 'started h2', 'finished h2 passed']);
  });

  it('starts a stage that reads recorded traces only after every selected recording stage finished', async () => {
    const catalogue = [
      { ...spec('reader', ['pass']), afterRecorders: true },
      { ...spec('rec-heavy', ['pass', '500']), recordsTraces: true },
      { ...spec('rec-light', ['pass', '800'], false), recordsTraces: true },
      spec('other', ['pass', '300']),
    ];
    const { progress, report } = await run(catalogue);
    const at = (e: string) => progress.events.indexOf(e);
    expect(at('started reader')).toBeGreaterThan(at('finished rec-heavy passed'));
    expect(at('started reader')).toBeGreaterThan(at('finished rec-light passed'));
    // The slot the reader waits for is not held idle: the other heavy stage ran meanwhile.
    expect(at('started other')).toBeLessThan(at('finished rec-heavy passed'));
    expect(report.stages.map((o) => o.stage)).toEqual(['reader', 'rec-heavy', 'rec-light', 'other']);
    // Recorders not selected are not waited for.
    const alone = await run([{ ...spec('reader', ['pass']), afterRecorders: true }]);
    expect(alone.report.verdict.status).toBe('passed');
  });

  it('kills a stage that exceeds its timeout, with its whole process group', async () => {
    const t0 = performance.now();
    const { report } = await run([spec('hang', ['hang'])], { stageTimeoutMs: 800 });
    expectWithin('verify-stage-timeout', performance.now() - t0);
    expect(report.stages[0]).toMatchObject({ status: 'error' });
    expect(report.stages[0]!.reason).toMatch(/timed out after 1 s/);
  });

  it('kills processes a stage leaves behind in its group, and fails verify for it', async () => {
    const pidFile = join(ownedTempDir('leak'), 'pids');
    const { report } = await run([spec('leak', ['leak'])], {}, { FAKE_STAGE_PIDFILE: pidFile });
    delete process.env.FAKE_STAGE_PIDFILE;
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(report.stages[0]!.leftoverProcesses).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(pid)).toBe(false);
    expect(report.verdict.exitCode).toBe(1);
    expect(report.verdict.reasons.join('\n')).toMatch(/stage leak left 1 process\(es\) running/);
  });

  it('wraps `mutants --json` result arrays into the stage and the mutation matrix', async () => {
    const { report } = await run([spec('mutants:model', ['mutants'], true, 'model')]);
    const o = report.stages[0]!;
    expect(o.status).toBe('failed');
    expect(o.report?.mutants).toHaveLength(2);
    const rows = Object.fromEntries(report.mutationMatrix.rows.map((r) => [r.id, r]));
    expect(rows.M1!.cells.model).toMatchObject({ verdict: 'killed', violated: 'Inv_SingleAuthority', tracePath: 'reports/traces/x.json' });
    expect(rows.M3!.cells.model).toMatchObject({ verdict: 'survived' });
    // The stage ran but said nothing about M2: that is a finding, not a pass.
    expect(rows.M2!.cells.model).toMatchObject({ verdict: 'missing' });
    expect(rows.M1!.cells.tla.verdict).toBe('not-selected');
    expect(rows.L1!.cells.model.verdict).toBe('n/a');
    expect(report.verdict.reasons.join('\n')).toMatch(/mutant M3 at layer model: survived/);
    expect(report.traces).toEqual(['reports/traces/x.json']);
  });

  it('fails naming a mutant its stage lost mid-run (the stage exited 0), unless --allow-not-run names the stage', async () => {
    const cells = ['M1=killed', 'M2=killed', 'M3=killed', 'M4=killed', 'M5=not-run', 'M6=killed', 'M7=killed', 'M8=killed', 'M9=killed'];
    const impl = spec('mutants:impl', ['results', 'impl', '0', ...cells], true, 'impl');
    const { report } = await run([impl]);
    expect(report.stages[0]).toMatchObject({ status: 'not-run', exitCode: 0, counts: { mutants: 9, killed: 8, notKilled: 0, notRun: 1 } });
    expect(report.mutationMatrix.rows.find((r) => r.id === 'M5')!.cells.impl).toMatchObject({ verdict: 'not-run', reason: 'M5 not-run (fake)' });
    expect(report.verdict.exitCode).toBe(1);
    expect(report.verdict.reasons).toContain('mutant M5 at layer impl: not run: M5 not-run (fake) (pass --allow-not-run mutants:impl to accept)');

    const allowed = await run([impl], { allowNotRun: ['mutants:impl'] });
    expect(allowed.report.verdict).toMatchObject({ exitCode: 0, status: 'passed', reasons: [] });
    expect(allowed.report.verdict.waived).toContain('mutant M5 at layer impl not run (allowed): M5 not-run (fake)');
    // Allowing another stage does not allow it.
    const other = await run([impl], { allowNotRun: ['mutants:model'] });
    expect(other.report.verdict.exitCode).toBe(1);
  });

  it('with tlc not run and allowed: the committed evidence fills the TLC column, and verify passes exactly when it is fresh', async () => {
    // The evidence stage's output is a captured `fencecheck evidence --json` (fresh), or a stale one.
    const tlc = spec('tlc', ['notrun'], true, 'tla');
    const fresh = await run([tlc, spec('evidence', ['replay', 'evidence-pass.json', '0'], false)], { allowNotRun: ['tlc'] });
    expect(fresh.report.verdict).toMatchObject({ exitCode: 0, status: 'passed', reasons: [] });
    expect(fresh.report.verdict.waived[0]).toMatch(/^stage tlc not run \(allowed\): no widget installed/);
    const m1 = fresh.report.mutationMatrix.rows.find((row) => row.id === 'M1')!;
    expect(m1.cells.tla).toMatchObject({ verdict: 'killed', from: 'evidence', stage: 'evidence', violated: 'Inv_SingleAuthority' });
    // One TLC summary per model whose evidence the stage found fresh.
    expect(fresh.report.tlc.map((t) => [t.model, t.from])).toEqual([
      ['RedisClusterFencingMigration', 'evidence'],
      ['PauseSnapshot', 'evidence'],
      ['FencingReplication', 'evidence'],
    ]);

    const stale = await run([tlc, spec('evidence', ['replay', 'evidence-stale.json', '1'], false)], { allowNotRun: ['tlc'] });
    expect(stale.report.verdict.exitCode).toBe(1);
    expect(stale.report.verdict.reasons).toEqual([`stage evidence failed: stale TLC evidence: the spec's SHA-256 is not the one the evidence was made from`]);
    expect(stale.report.mutationMatrix.rows.find((row) => row.id === 'M1')!.cells.tla).toMatchObject({ verdict: 'not-run', stage: 'tlc' });
  });

  it('starts every stage through the one entry with only the options it takes, and always --json', () => {
    const stage = (name: string) => STAGES.find((s) => s.name === name)!;
    expect(stageEntryArgv(stage('props'), { runs: 5, seed: 42, topology: 'standalone' })).toEqual(['stage', 'props', '--runs', '5', '--seed', '42', '--topology', 'standalone', '--json']);
    expect(stageEntryArgv(stage('limiter'), { topology: 'cluster' })).toEqual(['stage', 'limiter', '--topology', 'cluster', '--json']);
    expect(stageEntryArgv(stage('tlc'), { runs: 5, seed: 42 })).toEqual(['stage', 'tlc', '--json']);
    expect(stageEntryArgv(stage('explore'), { constants: ['Pods=2', 'MaxGen=3'], runs: 5 })).toEqual(['stage', 'explore', '--const', 'Pods=2', '--const', 'MaxGen=3', '--json']);
    // The pause walks run on the cluster (real pub/sub propagation); only the seed is verify's.
    expect(stageEntryArgv(stage('pause'), { seed: 42, runs: 5, topology: 'both' })).toEqual(['stage', 'pause', '--seed', '42', '--json']);
    // A part and a served report only where verify's plan gives them.
    expect(stageEntryArgv(stage('mutants:impl'), {}, { index: 2, count: 3 }, '/x/conform.json')).toEqual(['stage', 'mutants:impl', '--shard', '2/3', '--serve-report', '/x/conform.json', '--json']);
    expect(existsSync(FAKE)).toBe(true);
  });
});
