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
