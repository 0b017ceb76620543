/** One tour rig (three topologies) per test file, started before its tests and stopped after. */
import { afterAll, beforeAll } from 'vitest';
import { openTourRig, type TourRig } from '../../../src/systems/fencing/tour/rig.js';

export function useTourRig(): () => TourRig {
  let rig: TourRig | undefined;
  beforeAll(async () => {
    rig = await openTourRig({ provider: 'native' });
  });
  afterAll(async () => {
    await rig?.close();
  });
  return () => {
    if (!rig) throw new Error('the tour rig is not open (beforeAll failed?)');
    return rig;
  };
}

/** A test that runs whole tours: about 40 s each on a quiet 2-core machine, 150 s at a load of 20; this only guards against a hang. */
export const WHOLE_TOURS_MS = 900_000;
