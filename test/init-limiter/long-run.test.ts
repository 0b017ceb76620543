/**
 * The seeded long run (drive/long-run.ts): a herd of 200 clients on one budget of 4 slots and 8
 * waiters, real deadlines of 1.5 s a piece and a 3 s cap, publishes while it connects. The
 * unpatched server keeps every property it reads from outside; patches the bounded checks kill are
 * seen by the herd too where the herd reaches them. A failure prints the seed and its replay.
 */
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { runLongHerd } from '../../src/systems/init-limiter/drive/long-run.js';
import { loadInitLimiterPatch } from '../../src/systems/init-limiter/server/index.js';

describe('the seeded long run: a herd of hundreds on real deadlines', () => {
  it('the unpatched server: the budget never exceeded, every slot back once, no version lost, stalled clients cut', async () => {
    const r = await runLongHerd({ seed: 1, clients: 200 });
    expect(r.failures.join('\n'), `${r.summary}\nreplay: ${r.replay}`).toBe('');
    // The herd did contend: the budget and the queue were full at some sample, some callers shed.
    expect(r.summary).toMatch(/peak 4 slots of 4/);
    expect(r.summary).toMatch(/[1-9]\d* shed/);
    // The server's per-client read-out was sampled: at least the phases every herd goes through (off, sending, live).
    expect(r.summary).toMatch(/per-client phases [3-6]\/6, phase changes \d+\/15 of the model's/);
  }, 120_000);

  it.each([
    ['I10', /left open without a complete basis/],
    ['I11', /an up-to-date poll shed/],
  ])(
    '%s breaks it',
    async (id, line) => {
      const patch = await loadInitLimiterPatch(`mutants/init-limiter/impl/${id}.ts`, projectRoot);
      const r = await runLongHerd({ seed: 1, clients: 200, patch });
      expect(r.failures.join('\n'), r.summary).toMatch(line);
    },
    120_000,
  );
});
