import { cpus } from 'node:os';

/**
 * How many mostly-waiting jobs to run at once: one more than the cores. verify's heavy stages and
 * the impl layer's workers mostly wait (drills, reshards, read timeouts, real time), so the extra
 * one overlaps those waits with the CPU-bound work (measured in docs/decisions.md).
 */
export const WAITING_SLOTS = Math.max(1, cpus().length) + 1;
