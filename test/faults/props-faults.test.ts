/**
 * Faults are not verdicts: `fencecheck props` against a server the test owns, which the test then
 * breaks mid-run. Every one must end "could not run" (exit 2) within seconds, with no seed/path
 * printed as a counterexample and no Lua source in the output.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { closeClient, nodeClient, type Topology } from '../../src/valkey/index.js';
import type { StageReport } from '../../src/core/stage-report.js';
import { COUNTEREXAMPLE, ownStandalone, pointAt, runLive, stallableRelay } from './support.js';
import { expectWithin, hardLimitMs, testTimeoutFor, type BoundName } from '../support/bounds.js';

// The props meter prints a plain line per completed run with FENCECHECK_PROGRESS_MS=0.
const PROGRESS = /props \[\w+\]: \d+\/\d+ runs/;
const EVERY_RUN = { FENCECHECK_PROGRESS_MS: '0' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function own(): Promise<{ topo: Topology; url: string; pid: number; admin: Redis }> {
  const o = await ownStandalone();
  const admin = nodeClient(o.topo.nodes[0]!);
  cleanups.push(async () => {
    await closeClient(admin);
    await o.topo.stop();
  });
  return { ...o, admin };
}

function expectNotRun(r: Awaited<ReturnType<typeof runLive>>, bound: BoundName): StageReport {
  expect(r.timedOut, `still running after the hard timeout\n${r.stderr}`).toBe(false);
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(2);
  expectWithin(bound, r.ms);
  expect(r.stdout + r.stderr).not.toMatch(COUNTEREXAMPLE);
  const report = JSON.parse(r.stdout) as StageReport;
  expect(report).toMatchObject({ stage: 'props', status: 'not-run' });
  expect(report.reason).toBeTruthy();
  return report;
}

describe('fencecheck props: a fault is "could not run", never a counterexample', () => {
  it(
    'the standalone server SIGKILLed mid-run → exit 2',
    async () => {
      const { url, pid } = await own();
      const r = await runLive(['props', '--topology', 'standalone', '--runs', '400', '--json'], {
        env: pointAt(url, EVERY_RUN),
        timeoutMs: hardLimitMs('props-fault-server-killed'),
        onLine: { when: PROGRESS, then: () => process.kill(pid, 'SIGKILL') },
      });
      expect(r.stderr).toMatch(PROGRESS);
      // Typically ≈4 s. The bound leaves room for the step driver's 30 s settle loop (an acquire cut
      // mid-flight re-reads the keyspace while the connection "may be re-establishing"); without the
      // fault latch, shrinking against the dead server takes over a minute.
      const report = expectNotRun(r, 'props-fault-server-killed');
      expect(report.reason).toMatch(/connection-lost|server-gone/);
    },
    testTimeoutFor('props-fault-server-killed'),
  );

  it(
    "CLIENT KILL of the run's connections → exit 2",
    async () => {
      const { url, admin } = await own();
      let killing = true;
      const killer = async () => {
        while (killing) {
          await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes').catch(() => {});
          await new Promise((r) => setTimeout(r, 5));
        }
      };
      let loop: Promise<void> | undefined;
      cleanups.push(async () => {
        killing = false;
        await loop;
      });
      const r = await runLive(['props', '--topology', 'standalone', '--runs', '400', '--json'], {
        env: pointAt(url, EVERY_RUN),
        timeoutMs: hardLimitMs('props-fault-client-kill'),
        onLine: { when: PROGRESS, then: () => void (loop = killer()) },
      });
      killing = false;
      await loop;
      const report = expectNotRun(r, 'props-fault-client-kill');
      expect(report.reason).toMatch(/connection-lost/);
    },
    testTimeoutFor('props-fault-client-kill'),
  );

  it(
    'NOPERM: a user that may not run EVALSHA/EVAL/SCRIPT → exit 2, no Lua source',
    async () => {
      const { url, admin } = await own();
      await admin.call('ACL', 'SETUSER', 'default', '-evalsha', '-eval', '-script');
      const r = await runLive(['props', '--topology', 'standalone', '--runs', '50', '--json'], { env: pointAt(url), timeoutMs: hardLimitMs('props-fault-noperm') });
      const report = expectNotRun(r, 'props-fault-noperm');
      expect(report.reason).toMatch(/^standalone: permission.*NOPERM/);
      expect(r.stdout + r.stderr).not.toMatch(/redis\.call|KEYS\[1\]|local /);
    },
    testTimeoutFor('props-fault-noperm'),
  );

  it(
    'a silent endpoint (accepts, never answers) → exit 2 within seconds',
    async () => {
      const sockets: Socket[] = [];
      const server: Server = createServer((s) => sockets.push(s));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      cleanups.push(async () => {
        sockets.forEach((s) => s.destroy());
        await new Promise((r) => server.close(r));
      });
      const port = (server.address() as { port: number }).port;
      const r = await runLive(['props', '--topology', 'standalone', '--runs', '20', '--json'], {
        env: pointAt(`127.0.0.1:${port}`, { ...EVERY_RUN, FENCECHECK_COMMAND_TIMEOUT_MS: '500', FENCECHECK_CONNECT_TIMEOUT_MS: '500' }),
        timeoutMs: hardLimitMs('props-fault-silent'),
      });
      expectNotRun(r, 'props-fault-silent');
    },
    testTimeoutFor('props-fault-silent'),
  );

  it(
    'the endpoint goes silent mid-run (no close, no reset) → exit 2 within seconds',
    async () => {
      const { topo } = await own();
      const relay = await stallableRelay(topo.nodes[0]!);
      cleanups.push(() => relay.stop());
      const r = await runLive(['props', '--topology', 'standalone', '--runs', '100', '--json'], {
        env: pointAt(`127.0.0.1:${relay.port}`, { ...EVERY_RUN, FENCECHECK_COMMAND_TIMEOUT_MS: '500', FENCECHECK_CONNECT_TIMEOUT_MS: '500' }),
        timeoutMs: hardLimitMs('props-fault-stall'),
        onLine: { when: PROGRESS, then: () => relay.stall() },
      });
      expect(r.stderr).toMatch(PROGRESS);
      const report = expectNotRun(r, 'props-fault-stall');
      expect(report.reason).toMatch(/timeout/);
    },
    testTimeoutFor('props-fault-stall'),
  );
});
