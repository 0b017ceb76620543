/**
 * A user's own implementation patch through the real CLI on real Valkey:
 * `conform --patch FILE` gives killed (a deploy tool whose rollback keeps the backfill record, one
 * invariant alone), equivalent (a patch that records what the real step records) and, with
 * --safety-only, departs (a rollout that never records a target past A: a smaller graph, every
 * invariant holding) — the killed run's trace records the patch file and
 * `trace replay` applies it, refusing it once the file changed; `mutants --patch` reports it like
 * a manifest mutant. The tours run with one pod and two generations (189 states: the smallest graph with a rollback
 * after a backfill, a thirty-seventh of the default tour's attempts).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { fencecheckCli, type CliRun } from '../support/cli.js';

/** Three tours of a CLI run each (the unpatched one first) on a loaded two-core machine. */
const RUN_MS = 600_000;

const GATE_TYPES = 'type Records = { target: string; backfilled: boolean };';
const PATCHES = {
  // The bug: RollbackPhase leaves `backfilled` as it was, so the next advance to B skips the backfill.
  rollbackKeepsBackfill: `${GATE_TYPES}\nexport default { gateRecords: (step: string, recorded: Records, before: Records) => (step === 'RollbackPhase' ? { ...recorded, backfilled: before.backfilled } : recorded) };\n`,
  sameRecords: `${GATE_TYPES}\nexport default { gateRecords: (_step: string, recorded: Records) => recorded };\n`,
  // Lua that does not load: the patched code cannot run (bad input, not a verdict).
  brokenLua: `export default { lua: (name: string, source: string) => (name === 'B/acquire' ? \`\${source}\\nthis is not lua(\` : source) };\n`,
  stopsAtA: `${GATE_TYPES}\nexport default { gateRecords: (step: string, recorded: Records, before: Records) => (step === 'AdvanceTarget' && recorded.target !== 'A' ? before : recorded) };\n`,
} as const;

let dir = '';
let traces = '';
const file = (name: keyof typeof PATCHES) => join(dir, `${name}.mts`);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const cli = (args: readonly string[]): Promise<CliRun> => fencecheckCli(args, { FENCECHECK_TRACE_DIR: traces }, { timeoutMs: RUN_MS });
const errLines = (r: CliRun) => r.err.split('\n').filter((l) => l.trim() !== '' && !/attempts \(\d+ %\)|attempts, /.test(l));

beforeAll(() => {
  dir = ownedTempDir('patch-test');
  traces = join(dir, 'traces');
  for (const [name, text] of Object.entries(PATCHES)) writeFileSync(file(name as keyof typeof PATCHES), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.sequential('conform --patch FILE on real Valkey', () => {
  let killed: CliRun;
  let tracePath = '';

  it(
    'kills a patch of what the gate records: the finding, its path through the patched rollback, exit 1',
    async () => {
      // One invariant alone: the real graph followed past the model's (the whole tour stops at the first departure).
      killed = await cli(['conform', '--patch', file('rollbackKeepsBackfill'), '--invariant', 'Inv_LeaseGenBounded', '--const', 'Pods=1', '--const', 'MaxGen=2']);
      expect(killed.code, killed.err).toBe(1);
      expect(killed.out).toMatch(/^unpatched: 189 states, 2818 attempts, the model's graph/m);
      expect(killed.out).toMatch(/^killed: Inv_LeaseGenBounded broken after 11 steps \(at renew\(p1@1\)\)/m);
      expect(killed.out).toMatch(/RollbackPhase +target → A; backfill record cleared \(the patch records target A, backfilled true\)/);
      tracePath = /^trace: (.+)$/m.exec(killed.out)?.[1] ?? '';
      expect(killed.out).toContain(`replay: fencecheck trace replay ${tracePath}`);
      const trace = JSON.parse(readFileSync(resolve(tracePath), 'utf8')) as Record<string, unknown>;
      expect(trace).toMatchObject({
        system: 'fencing',
        source: 'conform',
        violated: 'Inv_LeaseGenBounded',
        patch: { path: file('rollbackKeepsBackfill'), sha256: sha256(file('rollbackKeepsBackfill')) },
      });
      expect(trace.mutant).toBeUndefined();
    },
    RUN_MS,
  );

  it(
    'trace replay applies the recorded patch and breaks the same invariant at the same step',
    async () => {
      const r = await cli(['trace', 'replay', tracePath]);
      expect(r.code, r.err).toBe(1);
      expect(r.out).toContain(`with ${file('rollbackKeepsBackfill')} from Init`);
      expect(r.out).toContain('the real system breaks Inv_LeaseGenBounded at step 11 (MigrateB(p1, 1)); the trace predicted step 11.');
    },
    RUN_MS,
  );

  it(
    'trace replay refuses the patch file once it changed: one line, exit 3',
    async () => {
      appendFileSync(file('rollbackKeepsBackfill'), '// edited\n');
      const r = await cli(['trace', 'replay', tracePath]);
      expect({ code: r.code, lines: errLines(r) }).toEqual({
        code: 3,
        lines: [expect.stringMatching(/^fencecheck trace: patch file .*rollbackKeepsBackfill\.mts changed since the trace was made \(sha256 [0-9a-f]{12}…, the trace recorded [0-9a-f]{12}…\)$/)],
      });
    },
    RUN_MS,
  );

  it(
    'calls a patch that shows exactly what the unpatched code shows equivalent (exit 0)',
    async () => {
      const r = await cli(['conform', '--patch', file('sameRecords'), '--const', 'Pods=1', '--const', 'MaxGen=2']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^equivalent: the patched code showed exactly what the unpatched code showed \(189 states, 2818 attempts/m);
    },
    RUN_MS,
  );

  it(
    'with --safety-only, calls a patch that departs from the model while every invariant holds departs (exit 4, --json)',
    async () => {
      const r = await cli(['conform', '--patch', file('stopsAtA'), '--safety-only', '--const', 'Pods=1', '--const', 'MaxGen=2', '--json']);
      expect(r.code, r.err).toBe(4);
      const report = JSON.parse(r.out) as { status: string; details: { patch: Record<string, unknown> } };
      expect(report.details.patch).toMatchObject({ path: file('stopsAtA'), sha256: sha256(file('stopsAtA')), verdict: 'departs', violated: 'Conformance' });
      expect(r.err).toMatch(/^departs from the model at \S+ after \d+ steps; every invariant held in the patched code's real graph/m);
    },
    RUN_MS,
  );
});

describe('conform --patch FILE whose code cannot run', () => {
  it(
    'is bad input: one line naming the patch and what failed, exit 3, after the unpatched tour passed',
    async () => {
      const r = await cli(['conform', '--patch', file('brokenLua'), '--const', 'Pods=1', '--const', 'MaxGen=2']);
      expect(r.out).toMatch(/^unpatched: 189 states/m);
      expect({ code: r.code, lines: errLines(r) }).toEqual({
        code: 3,
        lines: [expect.stringMatching(/^fencecheck conform: .*brokenLua\.mts: the patched code cannot run: fencing\/B\/acquire: line \d+: Lua syntax error/)],
      });
    },
    RUN_MS,
  );
});

describe('mutants --patch FILE on real Valkey', () => {
  it(
    'runs the patch through the impl layer like a manifest mutant: killed by its expected invariant, exit 0, a trace that records the file',
    async () => {
      writeFileSync(file('rollbackKeepsBackfill'), PATCHES.rollbackKeepsBackfill);
      const r = await cli(['mutants', '--patch', file('rollbackKeepsBackfill'), '--expect', 'Inv_LeaseGenBounded', '--json']);
      expect(r.code, r.err).toBe(0);
      const report = JSON.parse(r.out) as { status: string; mutants: { id: string; verdict: string; violated?: string; tracePath?: string }[] };
      expect(report.status).toBe('passed');
      expect(report.mutants).toEqual([
        expect.objectContaining({ id: 'patch:rollbackKeepsBackfill.mts', layer: 'impl', verdict: 'killed', violated: 'Inv_LeaseGenBounded', expectedInvariant: 'Inv_LeaseGenBounded' }),
      ]);
      const trace = JSON.parse(readFileSync(resolve(report.mutants[0]!.tracePath!), 'utf8')) as Record<string, unknown>;
      expect(trace.patch).toEqual({ path: file('rollbackKeepsBackfill'), sha256: sha256(file('rollbackKeepsBackfill')) });
      expect(trace.mutant, 'a user patch has no manifest id').toBeUndefined();
    },
    RUN_MS,
  );

  it(
    'calls a patch whose code cannot run bad input: one line, no stack, exit 3 (not a verdict)',
    async () => {
      const r = await cli(['mutants', '--patch', file('brokenLua'), '--const', 'Pods=1', '--const', 'MaxGen=2']);
      expect(`${r.out}\n${r.err}`, 'a stack trace was printed').not.toMatch(/^\s{4}at /m);
      expect(r.code, r.err).toBe(3);
      expect(r.err.split('\n').filter((l) => l.startsWith('fencecheck mutants:'))).toEqual([
        expect.stringMatching(/^fencecheck mutants: .*brokenLua\.mts: the patched code cannot run: fencing\/B\/acquire: line \d+: Lua syntax error/),
      ]);
    },
    RUN_MS,
  );
});
