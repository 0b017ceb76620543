/**
 * Acceptance of the trace interchange on real Valkey: a counterexample of the project's spec made by
 * a real TLC run with `-dumpTrace json` (live when a jar is found, else the committed capture from the
 * same run), and the same trace as a bare ITF file, both import, show and replay; a lasso replays its
 * stem and its loop once and says so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/core/manifest.js';
import { projectRoot } from '../../src/core/project-root.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { runTlc } from '../../src/tlc/run.js';
import { toItf } from '../../src/trace/export-itf.js';
import type { Trace } from '../../src/core/trace-format.js';
import type { ReplayResult } from '../../src/trace/replay.js';
import { runCli } from '../verify/run-cli.js';
import { fixturePath } from '../tlc/captures.js';
import { m1Trace } from './fixtures.js';

const located = locateTlc();
// Every file a test writes goes here, removed at the end (also when a test fails).
const scratch = mkdtempSync(join(tmpdir(), 'fencecheck-replay-imp-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const dir = () => mkdtempSync(join(scratch, 'd-'));

/** M1's counterexample as TLC's -dumpTrace json, run as src/tlc runs mutants (tla/fencing/mutants/M1.cfg, -deadlock). */
async function m1DumpTrace(): Promise<{ file: string; live: boolean }> {
  if (!located.ok) return { file: fixturePath('mutant-M1.dumptrace.json'), live: false };
  const file = join(dir(), 'M1.tlc.json');
  const config = loadManifest().mutants.find((m) => m.id === 'M1')!.layers.tla!.config!;
  const run = await runTlc({
    spec: join(projectRoot, 'tla/fencing/RedisClusterFencingMigration.tla'),
    config: join(projectRoot, config),
    tools: located.tools,
    workers: 1,
    extraArgs: ['-dumpTrace', 'json', file],
  });
  expect(run.kind === 'completed' && run.result.outcome).toBe('invariant-violation');
  return { file, live: true };
}

describe(`imported traces replay on real Valkey${located.ok ? '' : ' (TLC trace: the committed capture — no jar for a live run)'}`, () => {
  it('a TLC -dumpTrace json of mutant M1: import, show, replay breaks Inv_SingleAuthority where TLC said', async () => {
    const { file } = await m1DumpTrace();
    const trace = join(dir(), 'M1.trace.json');
    expect((await runCli(['trace', 'import', file, '--mutant', 'M1', '-o', trace])).code).toBe(0);
    const show = await runCli(['trace', 'show', trace, '--no-color']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/system=fencing .* mutant=M1 .* imported from tlc-json/);
    const r = await runCli(['trace', 'replay', trace, '--provider', 'native', '--json']);
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout) as ReplayResult;
    expect(result.patch).toBe('mutants/fencing/impl/M1.ts');
    expect(result.stoppedAt).toBe(8);
    expect(result.stoppedAt).toBe(result.predictedAt);
    expect(result.steps[8]!.brokenReal).toContain('Inv_SingleAuthority');
  });

  it('an ITF file without actions (inferred with the model): show and replay, the same violation', async () => {
    const t = JSON.parse(readFileSync(fixturePath('mutant-M1.dumptrace.json'), 'utf8')) as unknown;
    const imported = await (await import('../../src/trace/import.js')).importTrace(t, { mutant: 'M1' });
    const itf = JSON.parse(JSON.stringify(toItf(imported))) as { '#meta': Record<string, unknown>; states: Record<string, unknown>[] };
    for (const [i, s] of itf.states.entries()) s['#meta'] = { index: i };
    itf['#meta'] = { format: 'ITF', source: 'RedisClusterFencingMigration.tla' };
    const file = join(dir(), 'M1.itf.json');
    writeFileSync(file, JSON.stringify(itf));
    const show = await runCli(['trace', 'show', file, '--no-color']);
    expect(show.stdout).toMatch(/inferred from the state changes with the fencing, fencing\/M1 model's twin/);
    // No mutant in a bare ITF file: replayed on the shipped scripts, which refuse M1's step…
    const shipped = await runCli(['trace', 'replay', file, '--provider', 'native', '--json']);
    expect(shipped.code).toBe(0);
    expect((JSON.parse(shipped.stdout) as ReplayResult).steps[8]!.status).toBe('refused');
    // …and, imported with --mutant M1, on M1's implementation, where it breaks as TLC predicted.
    const trace = join(dir(), 'M1.from-itf.json');
    expect((await runCli(['trace', 'import', file, '--mutant', 'M1', '-o', trace])).code).toBe(0);
    const r = await runCli(['trace', 'replay', trace, '--provider', 'native', '--json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as ReplayResult).stoppedAt).toBe(8);
  });

  it('a real Quint trace of the fencing spec (mbt::actionTaken, M1): replay breaks Inv_SingleAuthority at its last step', async () => {
    const quint = join(projectRoot, 'test/trace/fixtures/itf/fencing-M1.quint-0.33.itf.json');
    const trace = join(dir(), 'M1.quint.trace.json');
    expect((await runCli(['trace', 'import', quint, '--mutant', 'M1', '-o', trace])).code).toBe(0);
    const r = await runCli(['trace', 'replay', trace, '--provider', 'native', '--json']);
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout) as ReplayResult;
    const last = (JSON.parse(readFileSync(quint, 'utf8')) as { states: unknown[] }).states.length - 1;
    expect(result).toMatchObject({ stoppedAt: last, predictedAt: last, brokenReal: ['Inv_SingleAuthority'] });
    expect(result.steps.every((s) => s.mismatches.length === 0)).toBe(true);
  });

  it('a lasso replays its stem and its loop once, and says so', async () => {
    const { mutant: _m, violated: _v, brokenAtEnd: _b, ...base } = JSON.parse(JSON.stringify(m1Trace())) as Trace;
    const lasso = { ...base, steps: base.steps.slice(0, 2), loop: 0, loopAction: { action: 'RollbackPhase', params: {} } };
    const file = join(dir(), 'lasso.json');
    writeFileSync(file, JSON.stringify(lasso));
    const show = await runCli(['trace', 'show', file, '--no-color']);
    expect(show.stdout).toMatch(/lasso: after step 1, RollbackPhase goes back to state 0/);
    const r = await runCli(['trace', 'replay', file, '--provider', 'native']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/lasso: replaying the stem and the loop once — steps 0\.\.1, then the closing RollbackPhase back to state 0 \(step 2\)/);
    expect(r.stdout).toMatch(/step 2 RollbackPhase: applied/);
  });
});
