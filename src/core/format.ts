/**
 * How durations and named figures are written in every human output (verify's progress and
 * reports, a command's progress meter): `4.2s`, `1m05s`; `states=4117 attempts=104958`.
 */

/** Tenths of a second below a minute (`4.2s`), whole seconds above (`1m05s`). */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}

/** `name=value` pairs in their given order; '' for none. */
export function formatCounts(counts: Readonly<Record<string, number>> | undefined): string {
  if (!counts) return '';
  return Object.entries(counts)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}
