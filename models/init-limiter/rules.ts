/**
 * InitLimiter.tla's guards and effects as named pure functions over the spec's variables. The
 * machine (machine.ts) refers to them by name only, so a mutant replaces exactly one name with
 * `machine.provide()`. The thirteen mutation points keep the spec's names and return the spec's
 * `Kept(name)`: true here, false in a mutant's patch. Where a point picks a branch of an action the
 * machine's transitions use it as a guard; where it picks a value inside an effect (the peek's and
 * the serialization's keys, the version asked for, the deadline arithmetic of a tick) the effect
 * asks `env.kept`, which evaluates the same, possibly overridden, guard.
 */
import {
  REST,
  clientsOf,
  isFdv1,
  isStream,
  normalisedClients,
  normalisedObservations,
  sameRecord,
  type ClientId,
  type ClientRecord,
  type InitLimiterBounds,
  type InitLimiterModelState,
  type Observation,
  type PerClient,
} from '../../src/systems/init-limiter/model-state.js';
import { basisOf, clientOf, type InitLimiterModelEvent } from './events.js';

/** The spec's thirteen mutation points (MutationPoints), each a named guard below. */
export const INIT_LIMITER_MUTATION_POINTS = [
  'Stream_HoldSlotAcrossSend',
  'Stream_CaptureDoneBeforeClose',
  'Serialize_KeyedByVersion',
  'Peek_KeyedByBasis',
  'Serialize_ReadsAfterAdmit',
  'Poll_ClearDeadlineOnReturn',
  'Deadline_ScopedToDelivery',
  'Deadline_ThroughputFloor',
  'Stream_NoIdleTimeout',
  'Shed_ClosesConnection',
  'UpToDate_NoSlot',
  'Deadline_ReachesSocket',
  'Deadline_OnlyWhenEnabled',
] as const;
export type InitLimiterMutationPoint = (typeof INIT_LIMITER_MUTATION_POINTS)[number];

export interface InitLimiterEnv {
  readonly bounds: InitLimiterBounds;
  /** The spec's Kept(point), from the machine's (possibly overridden) guard of that name. */
  kept(point: InitLimiterMutationPoint, s: InitLimiterModelState, ev: InitLimiterModelEvent): boolean;
}

export type InitLimiterGuard = (s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv) => boolean;
export type InitLimiterEffect = (s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv) => InitLimiterModelState;

const rec = (s: InitLimiterModelState, c: ClientId): ClientRecord => s.cl[c]!;
const put = (s: InitLimiterModelState, c: ClientId, r: ClientRecord): InitLimiterModelState => ({ ...s, cl: { ...s.cl, [c]: r } });
const observe = (s: InitLimiterModelState, o: Observation): InitLimiterModelState => ({ ...s, observed: normalisedObservations([...s.observed, o]) });
const min = (xs: readonly number[]): number => Math.min(...xs);

/** Release(S): the holders among S give their slot back, each exactly once. */
export function release(s: InitLimiterModelState, cs: readonly ClientId[]): InitLimiterModelState {
  const held = cs.filter((c) => s.holders.includes(c));
  return { ...s, holders: s.holders.filter((c) => !cs.includes(c)), inUse: s.inUse - held.length };
}

/** The spec's `Sending`: a full delivery starts with its write deadline armed (only with the limiter enabled, unless the mutant). */
const sending = (s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv): ClientRecord => ({
  ...REST,
  phase: 'sending',
  dl: env.bounds.limiterOn || !env.kept('Deadline_OnlyWhenEnabled', s, ev) ? 1 : null,
});

/** SlotFree: a free slot, or no limiter at all. */
const slotFree = (s: InitLimiterModelState, env: InitLimiterEnv): boolean => !env.bounds.limiterOn || s.inUse < env.bounds.maxConcurrent;
const queueRoom = (s: InitLimiterModelState, env: InitLimiterEnv): boolean => s.queue.length < env.bounds.maxQueued;
/** Bases(c): no data, or the store's version; an FDv1 stream asks with none. */
const basisKnown = (s: InitLimiterModelState, env: InitLimiterEnv, c: ClientId, b: number): boolean => b === 0 || (b === s.version && !isFdv1(env.bounds, c));
const format = (env: InitLimiterEnv, c: ClientId): string => (isFdv1(env.bounds, c) ? 'v1' : 'v2');

/** PeekRead(c, b): the read of a waiting caller of the same key, or the store now. */
function peekRead(s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv, c: ClientId, b: number): number {
  const key = (d: ClientId, x: number): string => (env.kept('Peek_KeyedByBasis', s, ev) ? `${format(env, d)}@${x}` : 'any');
  const flight = env.bounds.streams.filter((d) => d !== c && rec(s, d).phase === 'peeking' && key(d, rec(s, d).basis) === key(c, b)).map((d) => rec(s, d).pv);
  return flight.length === 0 ? s.version : min(flight);
}

/** Asked(c): the store read after admission, or the peek's. */
const asked = (s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv, c: ClientId): number =>
  env.bounds.limiterOn && env.kept('Serialize_ReadsAfterAdmit', s, ev) ? s.version : rec(s, c).pv;

/** Serialized(c, v): a serializing caller of the same key shares its result. */
function serialized(s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv, c: ClientId, v: number): number {
  const key = (d: ClientId, x: number): string => (env.kept('Serialize_KeyedByVersion', s, ev) ? `${format(env, d)}@${x}` : 'any');
  const flight = env.bounds.streams.filter((d) => d !== c && rec(s, d).phase === 'serializing' && key(d, rec(s, d).asked) === key(c, v)).map((d) => rec(s, d).sent);
  return flight.length === 0 ? v : min(flight);
}

/** Admitted(c): a stream serializes (slot taken before), a poll starts its reply; adm is where its live deltas follow from. */
function admitted(s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv, c: ClientId): ClientRecord {
  if (!isStream(c)) return sending(s, ev, env);
  const a = asked(s, ev, env, c);
  const adm = env.bounds.limiterOn ? s.version : rec(s, c).pv;
  return { ...REST, phase: 'serializing', basis: rec(s, c).basis, adm, asked: a, sent: serialized(s, ev, env, c, a) };
}

/** Shed(c): a stream's connection is closed (or, the mutant, left open); a poll is answered 503. */
function shed(s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv, c: ClientId): ClientRecord {
  if (!isStream(c)) return rec(s, c);
  return env.kept('Shed_ClosesConnection', s, ev) ? REST : { ...REST, phase: 'stranded' };
}

// ---- time (the spec's Tick and its operators) ----

const armed = (r: ClientRecord): boolean => r.dl === 0 || r.dl === 1;

function tickOf(s: InitLimiterModelState, ev: InitLimiterModelEvent, env: InitLimiterEnv, c: ClientId) {
  const r = rec(s, c);
  const onSocket = env.kept('Deadline_ReachesSocket', s, ev);
  // A delivery with no deadline (limiter disabled) goes on at the reader's pace.
  const completes = r.phase === 'sending' && r.reading === 'steady' && (r.dl === 1 || r.dl === null || !onSocket);
  const passes = armed(r) && !completes && (r.phase === 'sending' || r.dl === 0);
  const cut = passes && onSocket && (r.phase === 'sending' || r.phase === 'live');
  const ends = completes && r.written + 1 === (isStream(c) ? env.bounds.chunks : env.bounds.pollChunks);
  let next: ClientRecord;
  if (cut) next = REST;
  else if (ends && isStream(c)) next = { ...REST, phase: 'live', dl: env.kept('Deadline_ScopedToDelivery', s, ev) || r.dl === null ? null : 0 };
  else if (ends) next = { ...REST, dl: env.kept('Poll_ClearDeadlineOnReturn', s, ev) || r.dl === null ? null : 0 };
  else if (completes) next = { ...r, written: r.written + 1, dl: r.dl === null ? null : env.kept('Deadline_ThroughputFloor', s, ev) ? 1 : 0 };
  else if (passes) next = { ...r, dl: -1 };
  else next = r;
  return { next, cut, released: cut || (ends && (!isStream(c) || r.captured)) };
}

export const GUARDS = {
  Client_Off: (s, ev) => rec(s, clientOf(ev)).phase === 'off',
  Request_BasisKnown: (s, ev, env) => basisKnown(s, env, clientOf(ev), basisOf(ev)),
  Decide_Peeking: (s, ev) => rec(s, clientOf(ev)).phase === 'peeking',
  Decide_UpToDate: (s, ev) => rec(s, clientOf(ev)).pv === rec(s, clientOf(ev)).basis,
  Limiter_SlotFree: (s, _ev, env) => slotFree(s, env),
  Limiter_QueueRoom: (s, _ev, env) => queueRoom(s, env),
  Poll_UpToDate: (s, ev) => basisOf(ev) === s.version,
  // The reply is written without a deadline of its own: the up-to-date reply, or a 503.
  Poll_WritesUnarmed: (s, ev, env) => basisOf(ev) === s.version || (!slotFree(s, env) && !queueRoom(s, env)),
  Poll_DeadlinePassed: (s, ev) => rec(s, clientOf(ev)).dl === -1,
  Admit_Queued: (s, ev) => s.queue.includes(clientOf(ev)),
  Handoff_Serializing: (s, ev) => rec(s, clientOf(ev)).phase === 'serializing',
  CaptureDone_Uncaptured: (s, ev) => isStream(clientOf(ev)) && rec(s, clientOf(ev)).phase === 'sending' && !rec(s, clientOf(ev)).captured,
  Stall_Steady: (s, ev) => rec(s, clientOf(ev)).phase === 'sending' && rec(s, clientOf(ev)).reading === 'steady',
  IdleTimeout_StalledPartly: (s, ev) => {
    const r = rec(s, clientOf(ev));
    return isStream(clientOf(ev)) && r.phase === 'sending' && r.reading === 'stalled' && r.written >= 1;
  },
  Disconnect_Connected: (s, ev) => !sameRecord(rec(s, clientOf(ev)), REST),
  Publish_VersionsLeft: (s, _ev, env) => s.version < env.bounds.maxVersion,
  // Time passes while a deadline is armed, or (limiter disabled: no deadline) while a delivery is written.
  Tick_Armed: (s, _ev, env) => Object.values(s.cl).some((r) => armed(r) || (!env.bounds.limiterOn && r.phase === 'sending')),
  // The mutation points: the spec's Kept(name), true in the real design.
  Stream_HoldSlotAcrossSend: () => true,
  Stream_CaptureDoneBeforeClose: () => true,
  Serialize_KeyedByVersion: () => true,
  Peek_KeyedByBasis: () => true,
  Serialize_ReadsAfterAdmit: () => true,
  Poll_ClearDeadlineOnReturn: () => true,
  Deadline_ScopedToDelivery: () => true,
  Deadline_ThroughputFloor: () => true,
  Stream_NoIdleTimeout: () => true,
  Shed_ClosesConnection: () => true,
  UpToDate_NoSlot: () => true,
  Deadline_ReachesSocket: () => true,
  Deadline_OnlyWhenEnabled: () => true,
} as const satisfies Record<string, InitLimiterGuard>;

export type InitLimiterGuardName = keyof typeof GUARDS;

export const EFFECTS = {
  Connect_Peek: (s, ev, env) => {
    const c = clientOf(ev);
    const b = basisOf(ev);
    return put(s, c, { ...REST, phase: 'peeking', basis: b, pv: peekRead(s, ev, env, c, b) });
  },
  // Up to date: the small reply, no slot; the stream is live.
  Decide_Live: (s, ev) => put(s, clientOf(ev), { ...REST, phase: 'live' }),
  // The mutant charges the up-to-date reply a slot: with none free it is shed.
  Decide_ShedUpToDate: (s, ev, env) => observe(put(s, clientOf(ev), shed(s, ev, env, clientOf(ev))), 'shedUpToDate'),
  // Acquire's three outcomes: a free slot, a place in the queue, shed.
  Limiter_Admit: (s, ev, env) => {
    const c = clientOf(ev);
    const next = put(s, c, admitted(s, ev, env, c));
    // Disabled: no limiter to take a slot from.
    return env.bounds.limiterOn ? { ...next, holders: normalisedClients([...s.holders, c]), inUse: s.inUse + 1 } : next;
  },
  // After the wait the store is read again (Serialize_ReadsAfterAdmit): the peek is not kept.
  Limiter_Enqueue: (s, ev, env) => {
    const c = clientOf(ev);
    const r = rec(s, c);
    const q: ClientRecord = { ...REST, phase: 'queued', basis: r.basis, dl: r.dl, pv: env.kept('Serialize_ReadsAfterAdmit', s, ev) ? 0 : r.pv };
    return { ...put(s, c, q), queue: normalisedClients([...s.queue, c]) };
  },
  Limiter_Shed: (s, ev, env) => put(s, clientOf(ev), shed(s, ev, env, clientOf(ev))),
  // The write fails on the expired deadline an earlier request left: the connection is cut.
  Poll_CutKeptAlive: (s, ev) => observe(put(s, clientOf(ev), REST), 'cutKeptAlive'),
  Poll_Reply: (s) => ({ ...s }),
  Poll_ShedUpToDate: (s) => observe(s, 'shedUpToDate'),
  Admit_Dequeue: (s, ev) => ({ ...s, queue: s.queue.filter((c) => c !== clientOf(ev)) }),
  // Begin: the writer arms the deadline; the producer captures the done channel (or, the mutant, not yet).
  Handoff_Begin: (s, ev, env) => put(s, clientOf(ev), { ...sending(s, ev, env), captured: env.kept('Stream_CaptureDoneBeforeClose', s, ev) }),
  Handoff_ReleaseSlot: (s, ev) => release(s, [clientOf(ev)]),
  CaptureDone_Capture: (s, ev) => put(s, clientOf(ev), { ...rec(s, clientOf(ev)), captured: true }),
  Stall_StopReading: (s, ev) => put(s, clientOf(ev), { ...rec(s, clientOf(ev)), reading: 'stalled' }),
  IdleTimeout_Abandon: (s, ev) => release(put(s, clientOf(ev), { ...REST, phase: 'partial' }), [clientOf(ev)]),
  Disconnect_Close: (s, ev) => {
    const c = clientOf(ev);
    return { ...release(put(s, c, REST), [c]), queue: s.queue.filter((x) => x !== c) };
  },
  Publish_Delta: (s, _ev, env) => {
    const next = { ...s, version: s.version + 1 };
    return env.bounds.streams.some((c) => rec(s, c).phase === 'partial') ? observe(next, 'tornBasis') : next;
  },
  Tick_Elapse: (s, ev, env) => {
    const cs = clientsOf(env.bounds);
    const ticks = cs.map((c) => ({ c, before: rec(s, c), ...tickOf(s, ev, env, c) }));
    const cl = Object.fromEntries(ticks.map((t) => [t.c, t.next])) as PerClient<ClientRecord>;
    let next = release(
      { ...s, cl },
      ticks.filter((t) => t.released).map((t) => t.c),
    );
    if (ticks.some((t) => t.cut && t.before.phase === 'sending' && t.before.reading === 'steady')) next = observe(next, 'cutSteady');
    if (ticks.some((t) => t.cut && t.before.phase === 'live')) next = observe(next, 'cutLive');
    return next;
  },
} as const satisfies Record<string, InitLimiterEffect>;

export type InitLimiterEffectName = keyof typeof EFFECTS;
