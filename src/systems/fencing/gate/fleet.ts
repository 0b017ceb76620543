/**
 * The fleet as the gate reads it for itself (seed "Deployment Gate", rule 2): the phase every pod
 * reports on its `buzz_fencing_phase` gauge — scraped from the pods' /metrics or asked of Prometheus
 * — and the ReplicaSets in the Kubernetes API's shape (`kubectl get rs -o json`). Nothing here
 * decides: what was seen, what was not, and how old it is go to the fleet rules (fleet-rules.ts).
 *
 * The gauge: `buzz_fencing_phase{pod="<pod name>",phase="O|A|B|C"} 1` for the phase the pod runs
 * (other phases absent or 0). The pod label is the Kubernetes pod name (downward API), so a pod
 * belongs to the ReplicaSet whose name prefixes it (`<replicaset>-<suffix>`).
 */
import { parseExposition, ExpositionError } from '../../../fleet/exposition.js';
import { instantQuery, type VectorSample } from '../../../fleet/query.js';
import { httpText, SourceMalformedError } from '../../../fleet/sources.js';
import { PHASES, type Phase } from '../state.js';

export const PHASE_GAUGE = 'buzz_fencing_phase';
const REVISION = 'deployment.kubernetes.io/revision';

export interface ReplicaSet {
  readonly name: string;
  readonly revision: number;
  /** spec.replicas: what the Deployment asks of it. */
  readonly desired: number;
  /** status.replicas: the pods it has. */
  readonly replicas: number;
  /** The first container's image (what a gate that trusts tags would read). */
  readonly image?: string;
}

export interface FleetObservation {
  /** Oldest revision first; the last is the current ReplicaSet. */
  readonly replicaSets: readonly ReplicaSet[];
  /** Every phase each pod reports at value 1 (more than one is a fault the rules name). */
  readonly pods: Readonly<Record<string, readonly Phase[]>>;
  /** Targets or pods that answered but report no phase. */
  readonly silent: readonly string[];
  /** Targets whose last scrape failed (Prometheus' `up` is 0). */
  readonly down: readonly string[];
  /** Samples older than the bound: who, and how old (ms). */
  readonly stale: readonly { readonly who: string; readonly ageMs: number }[];
  readonly maxAgeMs: number;
  /** Where the phases were read: 'metrics' or 'prometheus <url>'. */
  readonly source: string;
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** `kubectl get rs -o json` (a ReplicaSetList or a List of ReplicaSets) → its ReplicaSets, oldest revision first. */
export function parseReplicaSets(source: string, json: unknown): ReplicaSet[] {
  const bad = (why: string): never => {
    throw new SourceMalformedError(source, why);
  };
  const list = json as { kind?: unknown; items?: unknown };
  if (typeof list !== 'object' || list === null || !Array.isArray(list.items)) bad("not a Kubernetes list: no 'items' array");
  if (list.kind !== 'ReplicaSetList' && list.kind !== 'List') bad(`kind is ${JSON.stringify(list.kind)}, not ReplicaSetList`);
  const out = (list.items as unknown[]).map((it, i): ReplicaSet => {
    const rs = it as {
      kind?: unknown;
      metadata?: { name?: unknown; annotations?: Record<string, unknown> };
      spec?: { replicas?: unknown; template?: { spec?: { containers?: { image?: unknown }[] } } };
      status?: { replicas?: unknown };
    };
    if (rs?.kind !== undefined && rs.kind !== 'ReplicaSet') bad(`item ${i} is a ${String(rs.kind)}, not a ReplicaSet`);
    const name = rs?.metadata?.name;
    if (typeof name !== 'string' || name === '') bad(`item ${i} has no metadata.name`);
    const rev = rs.metadata?.annotations?.[REVISION];
    if (typeof rev !== 'string' || !/^\d+$/.test(rev)) bad(`ReplicaSet ${name as string} has no '${REVISION}' annotation`);
    if (!isCount(rs.spec?.replicas)) bad(`ReplicaSet ${name as string}: spec.replicas is not a count`);
    if (!isCount(rs.status?.replicas)) bad(`ReplicaSet ${name as string}: status.replicas is not a count`);
    const image = rs.spec?.template?.spec?.containers?.[0]?.image;
    return { name: name as string, revision: Number(rev), desired: rs.spec!.replicas as number, replicas: rs.status!.replicas as number, ...(typeof image === 'string' && { image }) };
  });
  if (out.length === 0) bad('no ReplicaSet listed');
  const revs = new Set(out.map((r) => r.revision));
  if (revs.size < out.length) bad('two ReplicaSets carry the same revision');
  return out.sort((a, b) => a.revision - b.revision);
}

/** The ReplicaSet a pod belongs to: the longest name that prefixes `<name>-`. */
export function replicaSetOf(pod: string, sets: readonly ReplicaSet[]): ReplicaSet | undefined {
  return sets.filter((r) => pod.startsWith(`${r.name}-`)).sort((a, b) => b.name.length - a.name.length)[0];
}

function phaseOf(source: string, labels: Readonly<Record<string, string>>): Phase {
  const p = labels.phase;
  if (p === undefined || !(PHASES as readonly string[]).includes(p)) throw new SourceMalformedError(source, `${PHASE_GAUGE} with phase ${JSON.stringify(p)} (one of ${PHASES.join(', ')})`);
  return p as Phase;
}

function podOf(source: string, labels: Readonly<Record<string, string>>): string {
  const pod = labels.pod;
  if (pod === undefined || pod === '') throw new SourceMalformedError(source, `${PHASE_GAUGE} sample without a pod label`);
  return pod;
}

function running(source: string, value: number): boolean {
  if (value !== 0 && value !== 1) throw new SourceMalformedError(source, `${PHASE_GAUGE} is ${value}: 1 for the phase running, 0 otherwise`);
  return value === 1;
}

function add(pods: Record<string, Phase[]>, pod: string, phase: Phase) {
  const list = (pods[pod] ??= []);
  if (!list.includes(phase)) list.push(phase);
}

/** Every pod's /metrics, scraped now; a sample's own timestamp, when it has one, is held to `maxAgeMs`. */
export async function scrapePods(urls: readonly string[], opts: { maxAgeMs: number; timeoutMs: number; now?: () => number }): Promise<Omit<FleetObservation, 'replicaSets'>> {
  const now = opts.now ?? Date.now;
  const pods: Record<string, Phase[]> = {};
  const silent: string[] = [];
  const stale: { who: string; ageMs: number }[] = [];
  const texts = await Promise.all(urls.map((u) => httpText(u, opts.timeoutMs)));
  texts.forEach((text, i) => {
    const url = urls[i]!;
    let samples;
    try {
      samples = parseExposition(text);
    } catch (err) {
      if (err instanceof ExpositionError) throw new SourceMalformedError(url, `not Prometheus exposition text: ${err.message}`);
      throw err;
    }
    let any = false;
    for (const s of samples.filter((x) => x.name === PHASE_GAUGE)) {
      const pod = podOf(url, s.labels);
      const phase = phaseOf(url, s.labels);
      if (!running(url, s.value)) continue;
      any = true;
      add(pods, pod, phase);
      if (s.timestampMs !== undefined && now() - s.timestampMs > opts.maxAgeMs) stale.push({ who: `${pod} (${url})`, ageMs: now() - s.timestampMs });
    }
    if (!any) silent.push(url);
  });
  return { pods, silent, down: [], stale, maxAgeMs: opts.maxAgeMs, source: 'metrics' };
}

const seriesKey = (labels: Readonly<Record<string, string>>) =>
  JSON.stringify(
    Object.entries(labels)
      .filter(([k]) => k !== '__name__')
      .sort(),
  );

/**
 * The gauge asked of Prometheus: its samples, the time of each (`timestamp()`), and `up` of every
 * target that carries a pod label (a pod whose last scrape failed, or that reports no gauge).
 */
export async function queryPrometheus(baseUrl: string, opts: { maxAgeMs: number; timeoutMs: number; now?: () => number }): Promise<Omit<FleetObservation, 'replicaSets'>> {
  const now = opts.now ?? Date.now;
  const source = `Prometheus ${baseUrl}`;
  const [gauge, times, up] = await Promise.all([
    instantQuery(baseUrl, PHASE_GAUGE, opts.timeoutMs),
    instantQuery(baseUrl, `timestamp(${PHASE_GAUGE})`, opts.timeoutMs),
    instantQuery(baseUrl, 'up{pod!=""}', opts.timeoutMs),
  ]);
  const timeOf = new Map(times.map((t: VectorSample) => [seriesKey(t.labels), t.value]));
  const pods: Record<string, Phase[]> = {};
  const stale: { who: string; ageMs: number }[] = [];
  for (const s of gauge) {
    const pod = podOf(source, s.labels);
    const phase = phaseOf(source, s.labels);
    if (!running(source, s.value)) continue;
    add(pods, pod, phase);
    const t = timeOf.get(seriesKey(s.labels));
    // No timestamp for a series just seen: as old as can be (fail closed), never fresh by default.
    const ageMs = t === undefined ? Number.POSITIVE_INFINITY : Math.max(0, now() - t * 1000);
    if (ageMs > opts.maxAgeMs) stale.push({ who: pod, ageMs });
  }
  const down: string[] = [];
  const silent: string[] = [];
  for (const u of up) {
    const pod = u.labels.pod!;
    if (u.value !== 1) down.push(pod);
    else if (!(pod in pods)) silent.push(pod);
  }
  return { pods, silent: [...new Set(silent)], down: [...new Set(down)], stale, maxAgeMs: opts.maxAgeMs, source };
}
