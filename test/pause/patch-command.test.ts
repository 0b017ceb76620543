/**
 * `fencecheck pause --patch FILE`: the walks are a sample, so a patch whose walks hold is judged on
 * the tour as `conform --patch` judges it. The pause flag written with an hour's expiry keeps every
 * walk's invariants and is killed by the TTL rule on the tour (exit 1); a reworded SetPaused is
 * equivalent (exit 0). Without the tour judgement both would say "passed".
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../verify/run-cli.js';

describe('pause --patch judges the patch on the tour after its walks', () => {
  it('the flag written with an expiry: the walks hold, the tour kills it by TTL (exit 1)', async () => {
    const r = await runCli(['pause', '--patch', 'test/fixtures/patches/pause/pause-expires.ts', '--walks', '3']);
    expect(r.stdout).toMatch(/the walks: \d+ walks, \d+ steps: every invariant held/);
    expect(r.stdout).toMatch(/patch judged on the tour at MaxCalls=1: killed by TTL/);
    expect(r.code).toBe(1);
  }, 600_000);

  it('a reworded SetPaused is equivalent (exit 0)', async () => {
    const r = await runCli(['pause', '--patch', 'test/fixtures/patches/pause/set-paused-reworded.ts', '--walks', '3']);
    expect(r.stdout).toMatch(/patch judged on the tour at MaxCalls=1: equivalent/);
    expect(r.code).toBe(0);
  }, 600_000);
});
