/**
 * The walks' randomness: mulberry32, seeded per (run seed, walk index), so that walk i of seed S is
 * the same sequence of model events on every machine and every rerun (the replay command's promise).
 */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Walk `index` of run `seed`: its own stream, independent of how many walks ran before it. */
export function walkRng(seed: number, index: number): Rng {
  return mulberry32(Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
}
