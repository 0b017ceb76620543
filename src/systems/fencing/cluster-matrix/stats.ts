/** Figures helpers of the matrix rows: the sample statistics (src/core/stats.ts), rounded shares, a pause. */
export { mean, percentile } from '../../../core/stats.js';

/** 0.8333 → 83.3 (percent, one decimal). */
export const pct = (share: number): number => Math.round(share * 1000) / 10;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
