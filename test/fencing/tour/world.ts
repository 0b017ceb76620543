/** One tour world (three topologies) per test file, started before its tests and stopped after. */
import { afterAll, beforeAll } from 'vitest';
import { openTourWorld, type TourWorld } from '../../../src/systems/fencing/tour/world.js';

export function useTourWorld(): () => TourWorld {
  let world: TourWorld | undefined;
  beforeAll(async () => {
    world = await openTourWorld({ provider: 'native' });
  });
  afterAll(async () => {
    await world?.close();
  });
  return () => {
    if (!world) throw new Error('the tour world is not open (beforeAll failed?)');
    return world;
  };
}
