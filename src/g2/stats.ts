/** Figures helpers: nearest-rank percentiles and rounded shares. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const mean = (values: readonly number[]): number => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);

/** 0.8333 → 83.3 (percent, one decimal). */
export const pct = (share: number): number => Math.round(share * 1000) / 10;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
