import { interrupt, type StabilityItem } from '../stability/items.js';

/** The limiter's item of the stability benchmark: stopping its property runs. */
export const items: readonly StabilityItem[] = [interrupt('stop limiter', () => ['limiter'])];
