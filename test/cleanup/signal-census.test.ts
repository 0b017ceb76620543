/**
 * The signal census, small (the bench section `signals` takes it large, under two CPU burners, and
 * prints the figures): each long command is sent one signal — SIGINT, SIGTERM or SIGKILL followed
 * by the next command's reap, in turn — to its PID alone at a seeded moment: its start-up, or just after one of its first servers started or stopped. Each must
 * end as README "Exit codes" says (130 / 143; 137 for SIGKILL) and leave nothing: no process of its
 * sandbox, no folder, no record naming a process that is gone. Stop times are printed, not asserted.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { censusCommands, CENSUS_SIGNALS, censusRun, describeMoment, drawMoment, EXPECTED_STATUS } from '../../bench/signals/census.js';

const SEED = 20_261_207;

const COMMANDS = await censusCommands();

describe('a signal at a seeded moment of every long command leaves nothing behind', () => {
  const rng = mulberry32(SEED);
  COMMANDS.forEach((cmd, i) => {
    const signal = CENSUS_SIGNALS[i % CENSUS_SIGNALS.length]!;
    const moment = drawMoment(rng);
    it(`${cmd.name}: ${signal} at ${describeMoment(moment)} (seed ${SEED})`, { timeout: 300_000 }, async () => {
      const r = await censusRun(cmd, signal, moment, 240_000);
      console.log(
        `${cmd.name}: ${signal} at ${describeMoment(moment)}, ${Math.round(r.atMs)} ms in: ${r.endedFirst ? 'ended first' : `exit ${r.status}`}${r.stopMs !== null ? `, stopped in ${Math.round(r.stopMs)} ms` : ''}${r.reap ? `, reap killed ${r.reap.killed}` : ''}`,
      );
      expect(r.status, r.stderrTail).toBe(r.endedFirst ? 0 : EXPECTED_STATUS[signal]);
      expect(r.left).toEqual({ processes: [], folders: [], staleRecords: [] });
    });
  });
});
