/**
 * `fencecheck trace replay` of a tour's counterexample whose finding is no invariant: real traces
 * saved by real `conform --patch` tours (test/trace/fixtures/tour/, each recording its patch file)
 * replay on real Valkey (and the init limiter's reference server) to the same finding at the same
 * step, exit 1 — Conformance, TTL and the read side for fencing, Conformance for pause, the
 * limiter's counters for the init limiter (a slot released twice). Before, each replayed with "every invariant held", exit 0. The same fencing trace
 * without its patch holds every check on the shipped code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import type { ReplayResult } from '../../src/trace/replay.js';
import { runCli } from '../verify/run-cli.js';

const fixture = (name: string) => resolve(projectRoot, 'test/trace/fixtures/tour', name);
const replay = (file: string, json = true) => runCli(['trace', 'replay', file, '--provider', 'native', ...(json ? ['--json'] : [])]);

const scratch = mkdtempSync(join(tmpdir(), 'fencecheck-replay-tour-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Each fixture: its system, the finding its tour recorded, and the step it came at. */
const CASES = [
  { file: 'fencing-release-any-generation.json', check: 'Conformance', at: 9, says: /release\(p1@2\): the real system did transition ExpireNew .*the model predicts refused/ },
  { file: 'fencing-renew-keeps-ttl.json', check: 'TTL', at: 9, says: /after renew, newLease has PTTL \d+, want the full TTL/ },
  { file: 'fencing-known-generation-behind.json', check: 'ReadSide', at: 7, says: /C\/known_generation returned -1, the table says 0/ },
  { file: 'pause-ready-before-snapshot.json', check: 'Conformance', at: 9, says: /Subscribe\(r1\): .*the state read back is not the successor the model predicts/ },
  { file: 'init-limiter-double-release.json', check: 'LimiterCounters', at: 92, says: /\/metrics: 1 double releases/ },
] as const;

describe("trace replay of a tour's finding that is no invariant", () => {
  for (const c of CASES)
    it(`${c.file}: ${c.check} again at step ${c.at}, exit 1`, async () => {
      const trace = JSON.parse(readFileSync(fixture(c.file), 'utf8')) as { violated: string; steps: unknown[]; patch?: { path: string } };
      expect(trace.violated).toBe(c.check);
      expect(trace.steps.length - 1).toBe(c.at);
      const r = await replay(fixture(c.file));
      expect(r.code, r.stderr).toBe(1);
      const result = JSON.parse(r.stdout) as ReplayResult;
      expect(result.patch).toBe(trace.patch?.path);
      expect(result.stoppedAt).toBe(c.at);
      expect(result.finding?.check).toBe(c.check);
      expect(result.finding?.message).toMatch(c.says);
      expect(result.recorded).toEqual({ check: c.check, at: c.at });
      // No invariant broke: the finding is the tour's check, not an invariant.
      expect(result.brokenReal).toEqual([]);
    });

  it('the verdict names the check, the step and what the trace recorded', async () => {
    const r = await replay(fixture('fencing-renew-keeps-ttl.json'), false);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('the real system fails TTL at step 9 (Renew(p1, 1)); the trace recorded TTL at step 9.');
  });

  it('the same trace without its patch: the shipped scripts hold every check, exit 0', async () => {
    const trace = JSON.parse(readFileSync(fixture('fencing-release-any-generation.json'), 'utf8')) as Record<string, unknown>;
    delete trace.patch;
    const file = join(scratch, 'unpatched.json');
    writeFileSync(file, JSON.stringify(trace));
    const r = await replay(file, false);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('every check held on the real system for all 10 of 10 steps; the trace recorded Conformance at step 9.');
  });
});
