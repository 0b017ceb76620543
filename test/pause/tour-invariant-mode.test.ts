/**
 * The pause tour in invariant mode (the real graph followed breadth-first, each state reached by
 * replaying its path on a fresh instance) passes on the unpatched code: the replay reads back after
 * every attempt, as the tour does, so the instance's history of Valkey versions sees one commit per
 * read (replaying a path's attempts without a read between two commits was "Valkey's version went
 * from … to … in one step", a Replay finding on correct code). At one replica and at verify's bound.
 */
import { describe, expect, it } from 'vitest';
import { fencecheckCli } from '../support/cli.js';

const RUN_MS = 600_000;

describe('the pause tour with one invariant alone, on the unpatched code', () => {
  for (const bound of [['--const', 'Replicas=1'], ['--gate']]) {
    it(
      `${bound.join(' ')}: Inv_NoRevert holds in the real graph, which is the model's`,
      async () => {
        const r = await fencecheckCli(['conform', '--system', 'pause', ...bound, '--invariant', 'Inv_NoRevert'], {}, { timeoutMs: RUN_MS });
        expect(r.code, `${r.out}\n${r.err}`).toBe(0);
        expect(r.out).toMatch(/Inv_NoRevert alone: the real graph is the model's \((180|696) states/);
      },
      RUN_MS,
    );
  }
});
