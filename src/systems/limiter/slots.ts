import { keySlot } from '../../valkey/slots.js';

export interface PairSlots {
  readonly first: number;
  readonly second: number;
  /** False: the pair is cluster-unsafe (the server answers CROSSSLOT); give both keys one hash tag. */
  readonly sameSlot: boolean;
}

/** The slot check for a bucket pair; `prefix` is the client's keyPrefix, which the server sees too. */
export function pairSlots(firstKey: string, secondKey: string, prefix = ''): PairSlots {
  const first = keySlot(prefix + firstKey);
  const second = keySlot(prefix + secondKey);
  return { first, second, sameSlot: first === second };
}
