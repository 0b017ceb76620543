/**
 * The fencing model's state, named exactly as the TLA+ spec's variables
 * (tla/fencing/RedisClusterFencingMigration.tla, ../shared/design/fencing-model.md "State").
 * Every layer (TLC state dump, XState exploration, real keyspace snapshots, traces) speaks this type,
 * so parity is a comparison of canonical keys.
 */
export const PHASES = ['O', 'A', 'B', 'C'] as const;
export type Phase = (typeof PHASES)[number];

export const MODES = ['disabled', 'compatible', 'enabled'] as const;
export type Mode = (typeof MODES)[number];

/** Pods are TLA+ model values p1..pN; `None` is the model value for "no owner". */
export type Pod = `p${number}`;
export const NONE = 'None' as const;
export type Owner = Pod | typeof NONE;

export interface Lease {
  readonly owner: Owner;
  readonly gen: number;
}

export interface FencingState {
  readonly version: Readonly<Record<Pod, Phase>>;
  readonly target: Phase;
  readonly oldLease: Lease;
  readonly newLease: Lease;
  readonly oldGen: number;
  readonly newGen: number;
  readonly backfilled: boolean;
  readonly mode: Mode;
  readonly lastIssued: number;
  readonly monoOk: boolean;
}

/** The bounds of one check: TLA+ constants Pods and MaxGen. */
export interface FencingBounds {
  readonly pods: readonly Pod[];
  readonly maxGen: number;
}

export const DEFAULT_BOUNDS: FencingBounds = { pods: ['p1', 'p2', 'p3'], maxGen: 4 };

export function podsOf(n: number): Pod[] {
  return Array.from({ length: n }, (_, i) => `p${i + 1}` as Pod);
}

/**
 * The canonical one-line form of a state: fixed variable order, pods sorted, leases as owner/gen.
 * Two states are the same TLA+ state exactly when their canonical keys are equal.
 * Example: `version=p1:O,p2:A,p3:A;target=A;oldLease=p1/1;newLease=None/0;oldGen=1;newGen=0;backfilled=F;mode=disabled;lastIssued=1;monoOk=T`
 */
export function canonicalKey(s: FencingState): string {
  const pods = (Object.keys(s.version) as Pod[]).sort(comparePods);
  const version = pods.map((p) => `${p}:${s.version[p]}`).join(',');
  return [
    `version=${version}`,
    `target=${s.target}`,
    `oldLease=${s.oldLease.owner}/${s.oldLease.gen}`,
    `newLease=${s.newLease.owner}/${s.newLease.gen}`,
    `oldGen=${s.oldGen}`,
    `newGen=${s.newGen}`,
    `backfilled=${s.backfilled ? 'T' : 'F'}`,
    `mode=${s.mode}`,
    `lastIssued=${s.lastIssued}`,
    `monoOk=${s.monoOk ? 'T' : 'F'}`,
  ].join(';');
}

export function comparePods(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1));
}

/** The initial state of the spec's Init. */
export function initialState(bounds: FencingBounds = DEFAULT_BOUNDS): FencingState {
  const version = Object.fromEntries(bounds.pods.map((p) => [p, 'O' as Phase])) as Record<Pod, Phase>;
  return {
    version,
    target: 'O',
    oldLease: { owner: NONE, gen: 0 },
    newLease: { owner: NONE, gen: 0 },
    oldGen: 0,
    newGen: 0,
    backfilled: false,
    mode: 'disabled',
    lastIssued: 0,
    monoOk: true,
  };
}
