/** How every command and report writes a duration and a set of named figures. */

/** `4.2s`, `1m07s`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}

export function formatCounts(counts: Readonly<Record<string, number>> | undefined): string {
  if (!counts) return '';
  return Object.entries(counts)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}
