/**
 * The limiter's state, readable from outside: /metrics in the Prometheus text format (version
 * 0.0.4). Counters are per surface and always printed (zeros too), so a reader never has to tell
 * "absent" from "zero" and two servers in the same state print the same bytes.
 */
import { SURFACES, type Surface } from './limiter.js';

/** Per-surface counters (each printed as `initlimiter_<name>{surface="…"}`). */
export const SURFACE_COUNTERS = {
  acquired_total: 'slots acquired (immediately or after a queue wait)',
  released_total: 'release calls, double releases included',
  double_release_total: 'release calls on a slot already released',
  release_sent_total: 'slots released after the last byte of the basis was written',
  release_disconnect_total: 'slots released because the connection closed',
  release_cut_total: 'slots released because a write deadline cut the connection',
  release_returned_total: 'poll slots released when the handler returned',
  release_abandoned_total: 'slots released by a delivery that gave its basis up',
  shed_total: 'deliveries shed (budget and queue full)',
  queued_total: 'deliveries that waited in the queue',
  queue_abandoned_total: 'waiters whose client went away before a slot came',
  cut_total: 'connections a write deadline cut',
  disconnects_total: 'connections the client closed (not cut)',
  deliveries_started_total: 'full deliveries that began sending',
  deliveries_completed_total: 'full deliveries whose last byte was written',
  up_to_date_total: 'replies to a client already at the current basis',
} as const;
export type SurfaceCounter = keyof typeof SURFACE_COUNTERS;

export interface GaugeValue {
  readonly name: string;
  readonly help: string;
  readonly value: number;
  readonly type?: 'gauge' | 'counter';
  readonly labels?: Readonly<Record<string, string>>;
}

export class Metrics {
  private readonly counters = new Map<string, number>();

  count(name: SurfaceCounter, surface: Surface, by = 1): void {
    const k = `${name}|${surface}`;
    this.counters.set(k, (this.counters.get(k) ?? 0) + by);
  }

  get(name: SurfaceCounter, surface: Surface): number {
    return this.counters.get(`${name}|${surface}`) ?? 0;
  }

  /** The sum over every surface. */
  total(name: SurfaceCounter): number {
    return SURFACES.reduce((n, s) => n + this.get(name, s), 0);
  }

  render(gauges: readonly GaugeValue[]): string {
    const lines: string[] = [];
    const seen = new Set<string>();
    for (const g of gauges) {
      const name = `initlimiter_${g.name}`;
      if (!seen.has(name)) {
        seen.add(name);
        lines.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} ${g.type ?? 'gauge'}`);
      }
      lines.push(`${name}${labelText(g.labels)} ${g.value}`);
    }
    for (const [counter, help] of Object.entries(SURFACE_COUNTERS) as [SurfaceCounter, string][]) {
      const name = `initlimiter_${counter}`;
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const s of SURFACES) lines.push(`${name}{surface="${s}"} ${this.get(counter, s)}`);
    }
    return lines.join('\n') + '\n';
  }
}

function labelText(labels?: Readonly<Record<string, string>>): string {
  if (!labels) return '';
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}
