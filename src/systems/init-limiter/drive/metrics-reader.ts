/**
 * Reads a server's /metrics (Prometheus text format) — the only way the harness learns the
 * limiter's state: never by reaching into the server's memory, so a team's own server speaking the
 * same metrics is read the same way.
 */
import { DriveInputError, smallRequest } from './http-wire.js';

export interface MetricsSample {
  /** A sample's value; undefined when the server does not export it. */
  get(name: string, labels?: Readonly<Record<string, string>>): number | undefined;
  /** Like get, but a missing sample is an error naming it. */
  value(name: string, labels?: Readonly<Record<string, string>>): number;
  /** The sum of every sample of `name` (over its labels). */
  sum(name: string): number;
  readonly text: string;
}

function key(name: string, labels?: Readonly<Record<string, string>>): string {
  const l = Object.entries(labels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',');
  return l ? `${name}{${l}}` : name;
}

export function parseMetrics(text: string): MetricsSample {
  const samples = new Map<string, number>();
  const byName = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const lm of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[lm[1]!] = lm[2]!.replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
    const v = Number(m[4]);
    samples.set(key(m[1]!, labels), v);
    byName.set(m[1]!, (byName.get(m[1]!) ?? 0) + v);
  }
  return {
    text,
    get: (name, labels) => samples.get(key(name, labels)),
    value: (name, labels) => {
      const v = samples.get(key(name, labels));
      if (v === undefined) throw new Error(`/metrics has no ${key(name, labels)}`);
      return v;
    },
    sum: (name) => byName.get(name) ?? 0,
  };
}

/** The server's /metrics; `withProcess`: with the process's own gauges (RSS, heap), for the bench. */
export async function readMetrics(baseUrl: string, withProcess = false): Promise<MetricsSample> {
  const res = await smallRequest(baseUrl, 'GET', withProcess ? '/metrics?with=process' : '/metrics');
  if (res.status !== 200) throw new DriveInputError(`${baseUrl}/metrics answered ${res.status}`);
  return parseMetrics(res.text);
}
