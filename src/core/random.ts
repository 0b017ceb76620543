/**
 * The one seeded generator (mulberry32): the same sequence for the same seed on every machine, for
 * walks that replay from their seed and for populations that must be the same every run. Not for
 * anything secret.
 */
export type Rng = () => number;

/** Numbers in [0, 1). */
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
