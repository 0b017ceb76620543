/**
 * InitLimiter.tla's invariants over InitLimiterModelState, in the base config's order. Each reads
 * only the spec's variables (no machine: no invariant depends on a mutation point).
 */
import {
  OBSERVATIONS,
  PHASES,
  READINGS,
  clientsOf,
  type ClientId,
  type ClientRecord,
  type InitLimiterBounds,
  type InitLimiterModelState,
  type Observation,
} from '../../src/systems/init-limiter/model-state.js';

export const INIT_LIMITER_INVARIANT_NAMES = [
  'TypeOK',
  'Inv_SlotsBound',
  'Inv_QueueBound',
  'Inv_ReleasedOnce',
  'Inv_NoLeakedSlot',
  'Inv_SendHoldsSlot',
  'Inv_UpToDateNoSlot',
  'Inv_UpToDateRecognised',
  'Inv_NoLostDelta',
  'Inv_SerializeOwnVersion',
  'Inv_DeadlineScoped',
  'Inv_BoundedHold',
  'Inv_SteadyNeverCut',
  'Inv_LiveNotCut',
  'Inv_KeepAliveNotCut',
  'Inv_NoTornBasis',
  'Inv_ShedClosed',
  'Inv_OffPassThrough',
] as const;
export type InitLimiterInvariantName = (typeof INIT_LIMITER_INVARIANT_NAMES)[number];

export type InitLimiterInvariant = (s: InitLimiterModelState) => boolean;

const within = (x: unknown, lo: number, hi: number): boolean => Number.isInteger(x) && (x as number) >= lo && (x as number) <= hi;

export function initLimiterInvariants(b: InitLimiterBounds): Readonly<Record<InitLimiterInvariantName, InitLimiterInvariant>> {
  const clients = clientsOf(b);
  const streams = b.streams;
  const versionField = (x: unknown): boolean => within(x, 0, b.maxVersion);
  const typed = (r: ClientRecord | undefined): boolean =>
    r !== undefined &&
    PHASES.includes(r.phase) &&
    [r.basis, r.pv, r.adm, r.asked, r.sent].every(versionField) &&
    within(r.written, 0, Math.max(b.chunks, b.pollChunks) - 1) &&
    READINGS.includes(r.reading) &&
    (r.dl === null || r.dl === -1 || r.dl === 0 || r.dl === 1) &&
    typeof r.captured === 'boolean';
  const r = (s: InitLimiterModelState, c: ClientId): ClientRecord => s.cl[c]!;
  const unseen =
    (o: Observation) =>
    (s: InitLimiterModelState): boolean =>
      !s.observed.includes(o);
  return {
    TypeOK: (s) =>
      within(s.version, 1, b.maxVersion) &&
      Object.keys(s.cl).length === clients.length &&
      clients.every((c) => typed(s.cl[c])) &&
      s.holders.every((c) => clients.includes(c)) &&
      Number.isInteger(s.inUse) &&
      s.queue.every((c) => clients.includes(c)) &&
      s.observed.every((o) => OBSERVATIONS.includes(o)),
    Inv_SlotsBound: (s) => s.inUse <= b.maxConcurrent,
    Inv_QueueBound: (s) => s.queue.length <= b.maxQueued,
    Inv_ReleasedOnce: (s) => s.inUse === s.holders.length,
    Inv_NoLeakedSlot: (s) => s.holders.every((c) => r(s, c).phase === 'serializing' || r(s, c).phase === 'sending'),
    Inv_SendHoldsSlot: (s) => !b.limiterOn || clients.every((c) => r(s, c).phase !== 'sending' || s.holders.includes(c)),
    Inv_UpToDateNoSlot: unseen('shedUpToDate'),
    Inv_UpToDateRecognised: (s) => streams.every((c) => !(r(s, c).phase === 'queued' || r(s, c).phase === 'serializing') || r(s, c).basis < s.version),
    Inv_NoLostDelta: (s) => streams.every((c) => r(s, c).phase !== 'serializing' || r(s, c).sent >= r(s, c).adm),
    Inv_SerializeOwnVersion: (s) => streams.every((c) => r(s, c).phase !== 'serializing' || r(s, c).sent === r(s, c).asked),
    Inv_DeadlineScoped: (s) => clients.every((c) => r(s, c).dl === null || r(s, c).phase === 'sending'),
    Inv_BoundedHold: (s) => clients.every((c) => r(s, c).phase !== 'sending' || r(s, c).dl !== -1),
    Inv_SteadyNeverCut: unseen('cutSteady'),
    Inv_LiveNotCut: unseen('cutLive'),
    Inv_KeepAliveNotCut: unseen('cutKeptAlive'),
    Inv_NoTornBasis: unseen('tornBasis'),
    Inv_ShedClosed: (s) => streams.every((c) => r(s, c).phase !== 'stranded'),
    // The limiter disabled is the base behaviour: no slot, no queue, no deadline, nothing shed or abandoned.
    Inv_OffPassThrough: (s) =>
      b.limiterOn || (s.holders.length === 0 && s.inUse === 0 && s.queue.length === 0 && clients.every((c) => r(s, c).dl === null && !['queued', 'stranded', 'partial'].includes(r(s, c).phase))),
  };
}
