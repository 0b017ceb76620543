/**
 * A tiny system for the tour engine's tests: a lock two clients (a, b) take, release and bump a
 * counter under (bounded by MAX; a bump at MAX is accepted and changes nothing). Its "real side"
 * is an in-memory server of lock instances with seeded random reply delays (so replies finish out
 * of order), reachable by injection or by replay, with named bugs, each of which one check of the
 * engine must turn red.
 */
import { mulberry32 } from '../../../src/core/random.js';
import { TourObservationError, type DecisionView, type TourModel, type TourSystem } from '../../../src/seam/tour/system.js';

export const MAX = 3;
export type Client = 'a' | 'b';
export interface LockState {
  readonly holder: Client | null;
  readonly count: number;
}
export type LockAttempt = { readonly op: 'acquire' | 'release' | 'bump'; readonly p: Client };
export type LockDecision = { readonly kind: 'did'; readonly action: 'Acquire' | 'Release' | 'Bump'; readonly p: Client } | { readonly kind: 'refused' } | { readonly kind: 'saturated' };

export const INIT: LockState = { holder: null, count: 0 };
const CLIENTS: readonly Client[] = ['a', 'b'];
const OPS = ['acquire', 'release', 'bump'] as const;

export const key = (s: LockState) => `holder=${s.holder ?? 'none'};count=${s.count}`;
const label = (a: LockAttempt) => `${a.op}(${a.p})`;

function step(s: LockState, a: LockAttempt): { decision: LockDecision; next: LockState } {
  const did = (action: 'Acquire' | 'Release' | 'Bump', next: LockState) => ({ decision: { kind: 'did' as const, action, p: a.p }, next });
  const refused = { decision: { kind: 'refused' as const }, next: s };
  switch (a.op) {
    case 'acquire':
      return s.holder === null ? did('Acquire', { ...s, holder: a.p }) : refused;
    case 'release':
      return s.holder === a.p ? did('Release', { ...s, holder: null }) : refused;
    case 'bump':
      if (s.holder !== a.p) return refused;
      return s.count < MAX ? did('Bump', { ...s, count: s.count + 1 }) : { decision: { kind: 'saturated' }, next: s };
  }
}

export function view(a: LockAttempt, d: LockDecision): DecisionView {
  if (d.kind === 'did') return { label: `transition ${d.action}(${d.p})`, kind: 'transition', instance: `${d.action}(${d.p})`, row: d.action };
  return d.kind === 'saturated' ? { label: 'saturated', kind: 'unchanged', row: a.op } : { label: 'refused', kind: 'refused', row: a.op };
}

/** One model object for every toy system: the engine keeps its graph with it. */
export const lockModel: TourModel<LockState, LockAttempt, LockDecision> = {
  initialStates: () => [INIT],
  key,
  attempts: () => CLIENTS.flatMap((p) => OPS.map((op) => ({ op, p }))),
  attemptLabel: label,
  predict: step,
  view,
  invariants: {
    TypeOK: (s) => (s.holder === null || CLIENTS.includes(s.holder)) && Number.isInteger(s.count) && s.count >= 0,
    Inv_Bounded: (s) => s.count <= MAX,
  },
  typeInvariant: 'TypeOK',
};

/**
 * The bugs of the real side, and the check each turns red:
 * - release-any-holder: release frees the lock whoever holds it — Conformance.
 * - bump-past-max: bump counts past MAX — Conformance; Inv_Bounded when the invariant alone is checked.
 * - silent-audit: a bump writes no audit record — the step check Audit.
 * - peek-lies: whoHolds() answers none when the count is 2 — the state check Peek.
 * - unreadable: the count cannot be read back at 3 — Observation.
 * - drifting-replay: every instance after the 2nd starts with the count at 1 — Replay (invariant
 *   mode), Conformance (a replayed conformance tour); an injected tour never sees it.
 * - bump-by-two: a bump below MAX − 1 adds 2 — Conformance by the successor alone (the decision is the model's).
 * - refuse-at-max: a bump at MAX is refused instead of accepted — Conformance by the decision alone
 *   (the successor is the model's); with the invariant alone, a different digest (survives).
 * - no-b: b can never acquire — no check (a different graph: survives an invariant-alone tour).
 * - reworded: changes nothing the real side does — equivalent (the baseline's digest).
 * - chatty-release: a release replies in other words (its note), the decision the model's — no
 *   check; a different observed digest (a patch that survives, never an equivalent one).
 * - fault: an attempt throws (the server went away) — the tour rejects, as a fault, not a verdict.
 */
export type LockBug =
  | 'release-any-holder'
  | 'bump-past-max'
  | 'bump-by-two'
  | 'refuse-at-max'
  | 'silent-audit'
  | 'peek-lies'
  | 'unreadable'
  | 'drifting-replay'
  | 'no-b'
  | 'reworded'
  | 'chatty-release'
  | 'fault';

interface RealLock {
  holder: Client | null;
  count: number;
  audit: number;
  auditRead: number;
}

export interface LockServer {
  /** Instances alive now, and every one ever made. */
  readonly live: () => number;
  readonly made: () => number;
  /** Attempts run on the server. */
  readonly ran: () => number;
}

export interface ToyOptions {
  readonly bug?: LockBug;
  readonly reach?: 'inject' | 'replay';
  /** Seed of the reply delays (0–3 ms, so replies finish out of order). */
  readonly seed?: number;
}

export function toySystem(opts: ToyOptions = {}): TourSystem<LockState, LockAttempt, LockDecision, RealLock, { readonly audit: number }> & { readonly server: LockServer } {
  const bug = opts.bug;
  const rng = mulberry32(opts.seed ?? 1);
  const delay = () => new Promise<void>((r) => setTimeout(r, Math.floor(rng() * 4)));
  let live = 0;
  let made = 0;
  let ran = 0;
  let fresh = 0;
  const create = (s: LockState): RealLock => {
    live += 1;
    made += 1;
    return { holder: s.holder, count: s.count, audit: 0, auditRead: 0 };
  };
  /** A fresh instance in the initial state (replay): with drifting-replay, not the same one every time. */
  const start = (): RealLock => {
    fresh += 1;
    const l = create(INIT);
    if (bug === 'drifting-replay' && fresh > 2) l.count = 1;
    return l;
  };
  const real = (l: RealLock, a: LockAttempt): LockDecision => {
    switch (a.op) {
      case 'acquire':
        if (bug === 'no-b' && a.p === 'b') return { kind: 'refused' };
        if (l.holder !== null) return { kind: 'refused' };
        l.holder = a.p;
        l.audit += 1;
        return { kind: 'did', action: 'Acquire', p: a.p };
      case 'release':
        if (l.holder === null || (l.holder !== a.p && bug !== 'release-any-holder')) return { kind: 'refused' };
        l.holder = null;
        l.audit += 1;
        return { kind: 'did', action: 'Release', p: a.p };
      case 'bump':
        if (l.holder !== a.p) return { kind: 'refused' };
        if (l.count >= MAX && bug === 'refuse-at-max') return { kind: 'refused' };
        if (l.count >= MAX && bug !== 'bump-past-max') return { kind: 'saturated' };
        l.count += bug === 'bump-by-two' && l.count < MAX - 1 ? 2 : 1;
        if (bug !== 'silent-audit') l.audit += 1;
        return { kind: 'did', action: 'Bump', p: a.p };
    }
  };
  return {
    name: 'toy-lock',
    bounds: { max: MAX },
    boundsLabel: `Max=${MAX}`,
    model: lockModel,
    real: {
      reach: opts.reach === 'replay' ? { kind: 'replay', fresh: async () => (await delay(), start()) } : { kind: 'inject', inject: async (s) => (await delay(), create(s)) },
      async attempt(l, a) {
        await delay();
        if (bug === 'fault' && l.count === 2) throw new Error('the toy server went away');
        ran += 1;
        const decision = real(l, a);
        return { decision, note: bug === 'chatty-release' && a.op === 'release' ? `${decision.kind}, said otherwise` : decision.kind };
      },
      async read(l) {
        await delay();
        if (bug === 'unreadable' && l.count === 3) throw new TourObservationError('count 3 reads back as garbage');
        const audit = l.audit - l.auditRead;
        l.auditRead = l.audit;
        return { state: { holder: l.holder, count: l.count }, observation: { audit } };
      },
      async dispose() {
        live -= 1;
      },
    },
    checks: {
      step: (_from, a, s) => {
        const want = view(a, s.decision).kind === 'transition' ? 1 : 0;
        return s.observation.audit === want ? null : { check: 'Audit', message: `${label(a)} wrote ${s.observation.audit} audit records, want ${want}` };
      },
      state: async (s, l) => {
        await delay();
        const peek = bug === 'peek-lies' && l.count === 2 ? null : l.holder;
        return peek === s.holder ? null : { check: 'Peek', message: `whoHolds() = ${peek ?? 'none'} in ${key(s)}` };
      },
    },
    words: { unchanged: 'saturated bumps', stateCheck: 'whoHolds()' },
    server: { live: () => live, made: () => made, ran: () => ran },
  };
}
