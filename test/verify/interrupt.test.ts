/**
 * Interrupting verify: SIGINT/SIGTERM/SIGHUP stop every stage's process group, start no
 * further stage, exit 128 + the signal's number promptly (how promptly: `npm run bench -- stability`)
 * and leave no report (and no stale pass, nor any hidden folder of the run: src/verify/out-dir.ts);
 * a stage whose verify was SIGKILLed stops itself; an unwritable --out is one line and exit 2 before
 * any stage starts. verify runs as a real process (fixtures/verify-driver.mjs: the CLI's verify with
 * fake stages).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressSink } from '../../src/verify/progress.js';
import { REPORT_FILES, runVerify, VerifyInterruptedError } from '../../src/verify/run.js';
import type { Stage } from '../../src/verify/stages.js';
import { fakeCommand, fakeStage } from './fake-stages.js';
import { runCli } from './run-cli.js';
import { isRunning } from '../../src/valkey/registry.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { boundMs, expectWithin } from '../support/bounds.js';

const DRIVER = resolve(import.meta.dirname, 'fixtures/verify-driver.mjs');

/** Running (a zombie waiting for its reaper no longer runs). */
const alive = isRunning;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every PID a test saw, SIGKILLed after it whatever happened: no test leaves a process running. */
const seen = new Set<number>();
afterEach(() => {
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  seen.clear();
});

const pidsIn = (file: string): Map<string, number> => {
  const m = new Map<string, number>();
  if (!existsSync(file)) return m;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [label, pid] = line.split(' ');
    if (label && pid) m.set(label, Number(pid));
  }
  for (const pid of m.values()) seen.add(pid);
  return m;
};

/** Waits for a set-up step (verify and its stages starting) by default: its bound is the table's, not a guess. */
async function waitFor<T>(what: string, f: () => T | undefined, ms = boundMs('verify-stage-start')): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (performance.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

interface Driver {
  readonly proc: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  stdout: string;
  stderr: string;
}

function startVerify(args: string[], stages: Record<string, string[]>, env: Record<string, string>): Driver {
  const proc = spawn(process.execPath, [DRIVER, ...args], {
    env: { ...process.env, NO_COLOR: '1', FAKE_VERIFY_STAGES: JSON.stringify(stages), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  seen.add(proc.pid!);
  const d: Driver = {
    proc,
    stdout: '',
    stderr: '',
    exited: new Promise((r) => proc.on('exit', (code, signal) => r({ code, signal, at: performance.now() }))),
  };
  proc.stdout!.setEncoding('utf8').on('data', (s: string) => (d.stdout += s));
  proc.stderr!.setEncoding('utf8').on('data', (s: string) => (d.stderr += s));
  return d;
}

/** An output folder holding a previous run's PASSED reports. */
function staleOut(): string {
  const out = ownedTempDir('verify-int');
  const passed = JSON.stringify({ schema: 'fencecheck.verify/1', verdict: { exitCode: 0, status: 'passed', reasons: [], waived: [] } });
  writeFileSync(join(out, 'verify.json'), passed);
  writeFileSync(join(out, 'junit.xml'), '<testsuites tests="1" failures="0"/>');
  writeFileSync(join(out, 'verify.md'), 'verify: PASSED');
  writeFileSync(join(out, 'verify.html'), '<p>verify: PASSED</p>');
  return out;
}

describe('verify interrupted', () => {
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${sig}: stops every stage's group (even one ignoring SIGTERM), starts no new stage, exits ${code} promptly, no stale pass`, async () => {
      const out = staleOut();
      // Beside the output folder (verify empties that), in a folder of its own that is removed.
      const pidFile = join(ownedTempDir('verify-int-pids'), 'stages.pids');
      // One heavy slot: props runs, conform waits for the slot; evidence (light) runs alongside.
      const d = startVerify(
        ['--stages', 'props,conform,evidence', '--jobs', '1', '--out', out],
        {
          props: ['sleep', 'props', '60000', 'grandchild', 'stubborn'],
          conform: ['sleep', 'conform', '60000', 'grandchild'],
          evidence: ['sleep', 'evidence', '60000', 'grandchild'],
        },
        { FAKE_STAGE_PIDFILE: pidFile },
      );
      await waitFor('both running stages and their grandchildren', () => {
        const m = pidsIn(pidFile);
        return ['props', 'props-grandchild', 'evidence', 'evidence-grandchild'].every((l) => m.has(l)) ? m : undefined;
      });
      // The stale reports went before any stage started.
      for (const f of REPORT_FILES) expect(existsSync(join(out, f)), f).toBe(false);
      await sleep(300); // props is in its SIGTERM-ignoring sleep
      const t0 = performance.now();
      d.proc.kill(sig);
      const end = await d.exited;
      expect({ code: end.code, signal: end.signal }).toEqual({ code, signal: null });
      expectWithin('verify-interrupt-exit', end.at - t0);
      // Every stage process and everything in their groups is gone when verify exits.
      const after = pidsIn(pidFile);
      const running = [...after].filter(([, pid]) => alive(pid)).map(([l]) => l);
      expect(running).toEqual([]);
      // The stage waiting for the slot never started, not even while the others were stopping.
      await sleep(300);
      expect([...pidsIn(pidFile).keys()].filter((l) => l.startsWith('conform'))).toEqual([]);
      expect(d.stdout).not.toMatch(/conform: started/);
      // No verdict: no report, and the previous run's pass is not left behind.
      for (const f of REPORT_FILES) expect(existsSync(join(out, f)), f).toBe(false);
      // Nor the run's own hidden folders (its staging, the previous run set aside); the started stages' logs stay.
      expect(readdirSync(out).filter((e) => e.startsWith('.'))).toEqual([]);
      expect(readdirSync(join(out, 'stages')).sort()).toEqual(['evidence.log', 'props.log']);
      expect(d.stdout).not.toMatch(/verify: (PASSED|FAILED)/);
      expect(d.stderr).toContain(`fencecheck verify: interrupted by ${sig}: no verdict, no report written (exit ${code})`);
    });
  }

  it('SIGKILL: the stage notices verify is gone and stops itself and its group within a few seconds', async () => {
    const out = ownedTempDir('verify-kill');
    const pidFile = join(out, 'pids');
    const d = startVerify(['--stages', 'props', '--out', out], { props: ['sleep', 'props', '60000', 'grandchild', 'main'] }, { FAKE_STAGE_PIDFILE: pidFile });
    const pids = await waitFor('the stage and its grandchild', () => {
      const m = pidsIn(pidFile);
      return m.has('props') && m.has('props-grandchild') ? m : undefined;
    });
    d.proc.kill('SIGKILL');
    await d.exited;
    const t0 = performance.now();
    await waitFor('the orphaned stage to stop', () => ([...pids.values()].some(alive) ? undefined : true), boundMs('verify-orphan-stage-stop'));
    expectWithin('verify-orphan-stage-stop', performance.now() - t0);
  });
});

describe('verify --out', () => {
  it('an unwritable --out is one line and exit 2, before any stage starts', async () => {
    const dir = ownedTempDir('verify-out');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const r = await runCli(['verify', '--stages', 'evidence', '--out', join(file, 'reports')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^fencecheck verify: --out .*a-file\/reports: cannot create the folder: ENOTDIR/)]);
    expect(r.stderr).not.toMatch(/\n\s+at |crashed/);
    expect(r.stdout).not.toMatch(/started/);
  });
});

describe('runVerify with an abort signal', () => {
  it('starts no stage after the abort, stops the running one, and rejects without a verdict', async () => {
    const out = ownedTempDir('verify-abort');
    const pidFile = join(out, 'pids');
    process.env.FAKE_STAGE_PIDFILE = pidFile;
    const spec = (name: string): Stage => fakeStage(name, ['sleep', name, '60000', 'grandchild']);
    const started: string[] = [];
    const progress: ProgressSink = { planned() {}, started: (s) => started.push(s), line() {}, finished() {}, close() {} };
    const abort = new AbortController();
    const t0 = performance.now();
    const run = runVerify({
      stages: ['a', 'b'],
      stageOptions: {},
      allowNotRun: [],
      jobs: 1,
      stageTimeoutMs: 30_000,
      outDir: out,
      progress,
      catalogue: [spec('a'), spec('b')],
      command: fakeCommand,
      signal: abort.signal,
    }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    try {
      const pids = await waitFor('stage a', () => (pidsIn(pidFile).has('a-grandchild') ? pidsIn(pidFile) : undefined));
      abort.abort('SIGINT');
      const result = await run;
      expect(result).toBeInstanceOf(VerifyInterruptedError);
      expectWithin('verify-abort', performance.now() - t0);
      expect(started).toEqual(['a']);
      expect([...pids.values()].filter(alive)).toEqual([]);
    } finally {
      delete process.env.FAKE_STAGE_PIDFILE;
    }
  });
});
