/**
 * Faults are not verdicts, for `fencecheck limiter`: a user without EVALSHA/EVAL/SCRIPT (NOPERM on
 * the deploy's SCRIPT LOAD and on every call) and a server SIGKILLed mid-property are "could not
 * run" (exit 2), never a failed check, with no seed/path as a counterexample and no Lua source.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { closeClient, nodeClient } from '../../src/valkey/index.js';
import type { StageReport } from '../../src/core/stage-report.js';
import { COUNTEREXAMPLE, ownStandalone, pointAt, runLive } from './support.js';
import { expectWithin, hardLimitMs, testTimeoutFor } from '../support/bounds.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function own(): Promise<{ url: string; pid: number; admin: Redis }> {
  const o = await ownStandalone();
  const admin = nodeClient(o.topo.nodes[0]!);
  cleanups.push(async () => {
    await closeClient(admin);
    await o.topo.stop();
  });
  return { url: o.url, pid: o.pid, admin };
}

// Text of src/systems/limiter/lua/ordered_limiter.lua that must never be printed.
const LUA = /redis\.call|KEYS\[|ARGV\[|local \w+ =/;

describe('fencecheck limiter: a fault is "could not run", never a counterexample', () => {
  // Without SCRIPT: the deploy's SCRIPT LOAD is refused. With SCRIPT but without EVALSHA/EVAL: every
  // call of the property (alone: --no-invariants, so the property's own judgement is what counts).
  it.each([
    ['SCRIPT LOAD', ['-evalsha', '-eval', '-script'], []],
    ['EVALSHA/EVAL', ['-evalsha', '-eval'], ['--no-invariants']],
  ])(
    'NOPERM on %s → exit 2, the reason names NOPERM, no Lua source',
    async (_what, rules, extra) => {
      const { url, admin } = await own();
      await admin.call('ACL', 'SETUSER', 'default', ...rules);
      const r = await runLive(['limiter', '--topology', 'standalone', '--runs', '50', ...extra, '--json'], { env: pointAt(url), timeoutMs: hardLimitMs('limiter-fault-noperm') });
      expect(r.timedOut, r.stderr).toBe(false);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(2);
      expectWithin('limiter-fault-noperm', r.ms);
      expect(r.stdout + r.stderr).not.toMatch(LUA);
      expect(r.stdout + r.stderr).not.toMatch(COUNTEREXAMPLE);
      const report = JSON.parse(r.stdout) as StageReport;
      expect(report).toMatchObject({ stage: 'limiter', status: 'not-run' });
      expect(report.reason).toMatch(/^standalone: permission.*NOPERM/);
    },
    testTimeoutFor('limiter-fault-noperm'),
  );

  it(
    'the server SIGKILLed during the property → exit 2',
    async () => {
      const { url, pid } = await own();
      const r = await runLive(['limiter', '--topology', 'standalone', '--runs', '2000', '--json'], {
        env: pointAt(url),
        timeoutMs: hardLimitMs('limiter-fault-server-killed'),
        onLine: { when: /property: \d+ generated cases/, then: () => setTimeout(() => process.kill(pid, 'SIGKILL'), 1500) },
      });
      expect(r.timedOut, r.stderr).toBe(false);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(2);
      expectWithin('limiter-fault-server-killed', r.ms);
      expect(r.stdout + r.stderr).not.toMatch(COUNTEREXAMPLE);
      const report = JSON.parse(r.stdout) as StageReport;
      expect(report).toMatchObject({ stage: 'limiter', status: 'not-run' });
      expect(report.reason).toMatch(/connection-lost|server-gone/);
    },
    testTimeoutFor('limiter-fault-server-killed'),
  );
});
