/**
 * A coverage share as every report prints it (no model, no Valkey: the report renderers import it).
 * One decimal, except that short of every one is never 100.0 % (15635 of 15636 is 99.9 %).
 */
export function coveragePercent(executed: number, model: number): number {
  if (model <= 0 || executed >= model) return 100;
  return Math.min(99.9, Math.round((1000 * executed) / model) / 10);
}

/** `624 / 624 (100.0 %)`. */
export function figureText(executed: number, model: number): string {
  return `${executed} / ${model} (${coveragePercent(executed, model).toFixed(1)} %)`;
}
