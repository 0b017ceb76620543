/**
 * The init limiter's model state, named exactly as tla/init-limiter/InitLimiter.tla's variables.
 * The XState twin (models/init-limiter/) runs on it, TLC's dump is parsed into it (system.ts), and
 * `initLimiterKey` is the one canonical form both sides are compared in. Sets are sorted,
 * duplicate-free arrays (`normalised*`), and the key sorts again, so any order encodes the same.
 */

/** Clients are TLA+ model values: streams s1..sN, polling clients p1..pN. */
export type Stream = `s${number}`;
export type Poller = `p${number}`;
export type ClientId = Stream | Poller;

export const PHASES = ['off', 'peeking', 'queued', 'serializing', 'sending', 'live', 'partial', 'stranded'] as const;
export type Phase = (typeof PHASES)[number];

export const READINGS = ['steady', 'stalled'] as const;
export type Reading = (typeof READINGS)[number];

/** The budget left on a connection's write deadline: 1 this tick, 0 spent, -1 passed; null is the spec's `None`. */
export type Deadline = 1 | 0 | -1 | null;

/** What clients saw that a correct server never shows (the spec's `Observations`). */
export const OBSERVATIONS = ['cutSteady', 'cutLive', 'cutKeptAlive', 'tornBasis', 'shedUpToDate'] as const;
export type Observation = (typeof OBSERVATIONS)[number];

/** `cl[c]`: one client's connection and request (the spec's `Client` record). */
export interface ClientRecord {
  readonly phase: Phase;
  readonly basis: number;
  readonly pv: number;
  readonly adm: number;
  readonly asked: number;
  readonly sent: number;
  readonly written: number;
  readonly reading: Reading;
  readonly dl: Deadline;
  readonly captured: boolean;
}

export type PerClient<T> = Readonly<Record<ClientId, T>>;

export interface InitLimiterModelState {
  readonly version: number;
  readonly cl: PerClient<ClientRecord>;
  readonly holders: readonly ClientId[];
  readonly inUse: number;
  readonly queue: readonly ClientId[];
  readonly observed: readonly Observation[];
}

/** The spec's variables, in `vars` order. */
export const INIT_LIMITER_VARIABLES = ['version', 'cl', 'holders', 'inUse', 'queue', 'observed'] as const satisfies readonly (keyof InitLimiterModelState)[];

/** The record's fields, in the spec's order. */
export const CLIENT_FIELDS = ['phase', 'basis', 'pv', 'adm', 'asked', 'sent', 'written', 'reading', 'dl', 'captured'] as const satisfies readonly (keyof ClientRecord)[];

/** The constants of one check. */
export interface InitLimiterBounds {
  readonly streams: readonly Stream[];
  readonly polls: readonly Poller[];
  readonly maxConcurrent: number;
  readonly maxQueued: number;
  readonly maxVersion: number;
  readonly chunks: number;
  readonly pollChunks: number;
  /** The spec's LimiterOn: false is the default deployment (no limiter configured, the base replay). */
  readonly limiterOn: boolean;
  /** The spec's FDv1: the streams of the FDv1 endpoint (/all, one put event, no basis); the others are FDv2. */
  readonly fdv1: readonly Stream[];
}

/** tla/init-limiter/InitLimiter.cfg. */
export const INIT_LIMITER_BASE_BOUNDS: InitLimiterBounds = {
  streams: ['s1', 's2'],
  polls: ['p1', 'p2'],
  maxConcurrent: 2,
  maxQueued: 1,
  maxVersion: 2,
  chunks: 2,
  pollChunks: 1,
  limiterOn: true,
  fdv1: [],
};

export const clientsOf = (b: InitLimiterBounds): readonly ClientId[] => [...b.streams, ...b.polls];
export const isStream = (c: ClientId): c is Stream => c.startsWith('s');
/** Whether stream `c` is an FDv1 client in these bounds (the spec's `c \\in FDv1`). */
export const isFdv1 = (b: InitLimiterBounds, c: ClientId): boolean => (b.fdv1 as readonly ClientId[]).includes(c);

/** The spec's `Rest`: no request, no deadline. */
export const REST: ClientRecord = { phase: 'off', basis: 0, pv: 0, adm: 0, asked: 0, sent: 0, written: 0, reading: 'steady', dl: null, captured: false };

/** Init. */
export function initialInitLimiterState(b: InitLimiterBounds): InitLimiterModelState {
  return {
    version: 1,
    cl: Object.fromEntries(clientsOf(b).map((c) => [c, REST])) as PerClient<ClientRecord>,
    holders: [],
    inUse: 0,
    queue: [],
    observed: [],
  };
}

const byClient = (a: string, c: string): number => (a[0]! < c[0]! ? -1 : a[0]! > c[0]! ? 1 : Number(a.slice(1)) - Number(c.slice(1)));

/** A set of clients as the state keeps it: sorted, no duplicates. */
export function normalisedClients(cs: readonly ClientId[]): ClientId[] {
  return [...new Set(cs)].sort(byClient);
}
export function normalisedObservations(os: readonly Observation[]): Observation[] {
  return [...new Set(os)].sort();
}

export const sameRecord = (x: ClientRecord, y: ClientRecord): boolean => CLIENT_FIELDS.every((f) => x[f] === y[f]);

const tf = (x: boolean): string => (x ? 'T' : 'F');
const dlText = (d: Deadline): string => (d === null ? 'None' : String(d));
/** One record, every field in the spec's order. */
export const recordText = (r: ClientRecord): string => `${r.phase}/${r.basis}/${r.pv}/${r.adm}/${r.asked}/${r.sent}/${r.written}/${r.reading}/${dlText(r.dl)}/${tf(r.captured)}`;
const setText = (items: readonly string[]): string => `{${[...new Set(items)].sort().join(',')}}`;

/**
 * The canonical key: every variable in `vars` order, sets sorted and de-duplicated, clients in
 * name order (p before s, then numeric). Two states have one key exactly when TLC would count them as one.
 */
export function initLimiterKey(s: InitLimiterModelState): string {
  const cs = (Object.keys(s.cl) as ClientId[]).sort(byClient);
  return [
    `version=${s.version}`,
    `cl=${cs.map((c) => `${c}:${recordText(s.cl[c]!)}`).join(',')}`,
    `holders=${setText(s.holders)}`,
    `inUse=${s.inUse}`,
    `queue=${setText(s.queue)}`,
    `observed=${setText(s.observed)}`,
  ].join(';');
}
