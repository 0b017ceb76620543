/**
 * Every wall-clock bound a test asserts or waits for, in one table (docs/testing.md,
 * "Timed bounds"). A bound only catches a hang or a missing mechanism (a signal not handled, a fault
 * not latched, a client not closed): it is set at no less than 5× the p99 of the value measured on
 * the project's 2-core machine with two CPU burners running, so that load never turns it red. How
 * fast things are is printed by `npm run bench -- stability` (stop times) and the other bench
 * sections, never asserted.
 *
 * With FENCECHECK_TIMING_LOG=FILE every measured value is appended to FILE as one JSON line
 * `{"bound":NAME,"ms":N,"boundMs":B}`: how the `p99Ms` column was measured (`npm run bench --
 * timing` runs the files that use this table under two burners and summarises the log). Fewer than
 * 100 samples: the largest one stands for the p99.
 */
import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { waitUntil } from '../../src/valkey/wait.js';

export interface TimedBound {
  /** What is timed, from when to when. */
  readonly what: string;
  readonly boundMs: number;
  /** The p99 (or the largest of fewer than 100 samples) under two CPU burners, and the sample count. */
  readonly p99Ms: number;
  readonly samples: number;
  /** The bound before the stability work, for the record. */
  readonly wasMs: number;
}

export const BOUNDS = {
  'topology-start-stop': { what: '`topology start` signalled → exited (its nodes stopped)', boundMs: 2_500, p99Ms: 468, samples: 10, wasMs: 2000 },
  'topology-start-ready': { what: '`topology start --json` spawned → its node table printed', boundMs: 45_000, p99Ms: 8_567, samples: 10, wasMs: 30_000 },
  'command-signal-stop': { what: 'a command waiting on its node signalled → ended by the signal (test/cleanup/signals)', boundMs: 15_000, p99Ms: 928, samples: 20, wasMs: 0 },
  'owner-signal-stop': { what: 'a process owning servers signalled → ended (test/cleanup/no-survivors)', boundMs: 15_000, p99Ms: 243, samples: 95, wasMs: 15_000 },
  'servers-gone-after-owner': { what: 'the owner ended → every server it owned gone from the process table', boundMs: 5_000, p99Ms: 29, samples: 60, wasMs: 5_000 },
  'killed-servers-gone': { what: 'servers SIGKILLed (reaped orphans, an interrupted vitest) → gone from the process table', boundMs: 10_000, p99Ms: 1_865, samples: 15, wasMs: 10_000 },
  'process-exec': { what: 'a process spawned → its new program image shows in /proc', boundMs: 5_000, p99Ms: 0, samples: 10, wasMs: 5_000 },
  'verify-interrupt-exit': { what: 'verify signalled (a stage ignoring SIGTERM) → verify exited', boundMs: 8_500, p99Ms: 1_629, samples: 15, wasMs: 2_000 },
  // Was a fixed 15 s wait in the test: at a load of 30 (eight engineers' work on 2 cores), with the CLI
  // run through tsx, 2 of 12 runs took longer to start verify, its stage and the stage's grandchild.
  'verify-stage-start': { what: 'verify spawned → its (fake) stages and their grandchildren running', boundMs: 90_000, p99Ms: 15_000, samples: 12, wasMs: 15_000 },
  'verify-orphan-stage-stop': { what: 'verify SIGKILLed → its orphaned stage and grandchild gone', boundMs: 5_000, p99Ms: 459, samples: 5, wasMs: 5_000 },
  'verify-abort': { what: 'runVerify started → rejected after an abort (the running stage stopped)', boundMs: 15_000, p99Ms: 1_051, samples: 5, wasMs: 15_000 },
  'verify-stage-timeout': { what: 'a hanging stage with an 800 ms stage timeout → verify done', boundMs: 20_000, p99Ms: 2_175, samples: 5, wasMs: 20_000 },
  'silent-command-timeout': { what: 'a command to a silent endpoint (700 ms timeout) → rejected', boundMs: 4_200, p99Ms: 830, samples: 30, wasMs: 2_700 },
  'silent-external-start': { what: 'startExternal on a silent endpoint (700 ms timeout) → rejected', boundMs: 4_000, p99Ms: 737, samples: 10, wasMs: 3_700 },
  'timed-out-script': { what: 'a script past its 200 ms command timeout → OutcomeUnknownError', boundMs: 1_600, p99Ms: 317, samples: 5, wasMs: 1_000 },
  'busy-script-done': {
    what: "a 300M-iteration Lua spin (INCR, then a loop) → the node answers PING again (was: within Valkey's 5 s busy threshold)",
    boundMs: 40_000,
    p99Ms: 7_432,
    samples: 4,
    wasMs: 5_000,
  },
  'cli-silent-endpoint': { what: 'a CLI run at a silent endpoint (500/700 ms timeouts) → exit 2', boundMs: 260_000, p99Ms: 51_070, samples: 15, wasMs: 25_000 },
  'gate-non-resp': { what: '`gate --url` at a non-RESP endpoint → exit 2 (never the command timeout)', boundMs: 50_000, p99Ms: 9_639, samples: 5, wasMs: 8_000 },
  'clients-closed-after-fault': { what: 'a run ended by a fault → every client it opened closed', boundMs: 3_000, p99Ms: 81, samples: 10, wasMs: 3_000 },
  'door-kill-fault': { what: 'a shard killed during the door → the props run returned its fault', boundMs: 20_000, p99Ms: 234, samples: 10, wasMs: 20_000 },
  'door-kill-exit': { what: 'the door-kill child done → exited (no client keeps it alive)', boundMs: 11_000, p99Ms: 2_089, samples: 10, wasMs: 5_000 },
  'props-fault-server-killed': { what: '`props` whose server is SIGKILLed mid-run → exit 2', boundMs: 80_000, p99Ms: 15_904, samples: 5, wasMs: 45_000 },
  'props-fault-client-kill': { what: '`props` whose connections are killed → exit 2', boundMs: 105_000, p99Ms: 20_998, samples: 5, wasMs: 45_000 },
  'props-fault-noperm': { what: '`props` refused EVALSHA/EVAL/SCRIPT → exit 2', boundMs: 75_000, p99Ms: 14_599, samples: 5, wasMs: 30_000 },
  'props-fault-silent': { what: '`props` at a silent endpoint (500 ms timeouts) → exit 2', boundMs: 90_000, p99Ms: 17_410, samples: 5, wasMs: 15_000 },
  'props-fault-stall': { what: '`props` whose endpoint goes silent mid-run → exit 2', boundMs: 75_000, p99Ms: 14_628, samples: 5, wasMs: 30_000 },
  'limiter-fault-noperm': { what: '`limiter` refused SCRIPT or EVALSHA/EVAL → exit 2', boundMs: 30_000, p99Ms: 4_482, samples: 10, wasMs: 30_000 },
  'limiter-fault-server-killed': { what: '`limiter` whose server is SIGKILLed mid-property → exit 2', boundMs: 60_000, p99Ms: 6_930, samples: 5, wasMs: 60_000 },
  'pause-event': { what: 'a pause event published → every replica of the fleet applies it', boundMs: 5_000, p99Ms: 61, samples: 20, wasMs: 5_000 },
  'pause-repair': { what: 'a pause replica whose events are dropped, reconcile 50–150 ms → the expected answer', boundMs: 3_000, p99Ms: 453, samples: 30, wasMs: 3_000 },
} as const satisfies Record<string, TimedBound>;

export type BoundName = keyof typeof BOUNDS;

/**
 * FENCECHECK_BOUNDS_SCALE multiplies every bound (default 1): `npm run bench -- timing` measures with
 * 10, so that no wait is cut short at its bound and every sample is the real value.
 */
const SCALE = ((raw) => (raw !== undefined && Number(raw) >= 1 ? Number(raw) : 1))(process.env.FENCECHECK_BOUNDS_SCALE);

export const boundMs = (name: BoundName): number => BOUNDS[name].boundMs * SCALE;

/** A hard limit for a child process whose run is timed by `name`: past the bound, so the bound's
 * assertion (with its message) is what fails, not a kill. */
export const hardLimitMs = (name: BoundName): number => 2 * boundMs(name);

/** A vitest timeout for a test that waits up to hardLimitMs(name), plus its own set-up. */
export const testTimeoutFor = (name: BoundName, setupMs = 60_000): number => hardLimitMs(name) + setupMs;

/** Appends a measured value to FENCECHECK_TIMING_LOG, when set. */
export function recordTiming(name: BoundName, ms: number): void {
  const log = process.env.FENCECHECK_TIMING_LOG;
  if (log) appendFileSync(log, `${JSON.stringify({ bound: name, ms: Math.round(ms), boundMs: BOUNDS[name].boundMs })}\n`);
}

/** Asserts `ms` is under the named bound (and records it). */
export function expectWithin(name: BoundName, ms: number, message?: string): void {
  recordTiming(name, ms);
  expect(ms, `${BOUNDS[name].what}: ${Math.round(ms)} ms${message ? `\n${message}` : ''}`).toBeLessThan(boundMs(name));
}

/** waitUntil with the named bound as its timeout; records how long it took and returns it. */
export async function waitWithin(name: BoundName, what: string, probe: () => Promise<boolean>, everyMs?: number): Promise<number> {
  const t0 = performance.now();
  await waitUntil(what, probe, boundMs(name), everyMs);
  const ms = performance.now() - t0;
  recordTiming(name, ms);
  return ms;
}
