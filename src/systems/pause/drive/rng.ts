/**
 * The walks' randomness: the project's seeded generator (src/core/random.ts), seeded per (run seed, walk
 * index), so that walk i of seed S is the same sequence of model events on every machine and every
 * rerun (the replay command's promise).
 */
import { mulberry32, type Rng } from '../../../core/random.js';

export type { Rng };

/** Walk `index` of run `seed`: its own stream, independent of how many walks ran before it. */
export function walkRng(seed: number, index: number): Rng {
  return mulberry32(Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
}
