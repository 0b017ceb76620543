/**
 * Fencing's real side of the tour: a fresh session is put into exactly the state (its keyspace
 * written directly, the deploy records and the pod's memory given to the step driver), the attempt
 * runs through the same scripts, gate and door the pods and the pipeline use, and the keyspace is
 * read back (values and TTLs). Nothing here compares with the model: that is the engine's job
 * (src/seam/tour/tour.ts).
 */
import { ReplyError } from 'ioredis';
import { createFencingDriver, type FencingDriver, type StepOutcome } from '../driver.js';
import { sessionKeys, type KeyRole, type SessionKeys, type SessionRef } from '../keys.js';
import type { FencingScripts } from '../scripts.js';
import type { ImplPatch } from '../patch.js';
import { NONE, type FencingBounds, type FencingState, type Lease, type Pod } from '../state.js';
import { decodeCounter, decodeLease } from '../encoding.js';
import type { FencingEvent } from '../../../../models/fencing/index.js';
import { classifyFault } from '../../../valkey/fault.js';
import { TourObservationError, type Outcome, type Readback, type TourReal } from '../../../seam/tour/system.js';
import type { Attempt, Decision } from './attempts.js';
import { injectKeyspace, readKeyspace, sessionDoor, type TourRig } from './rig.js';

/** A script's own error reply, or a reply of the wrong shape: an observation, not a fault. */
function scriptFailure(err: unknown): string | null {
  // NOPERM, BUSY, LOADING, CLUSTERDOWN... are server replies too, but faults: never an observation.
  if (classifyFault(err) !== null) return null;
  if (err instanceof ReplyError) return (err as Error).message.split('\n')[0]!.slice(0, 200);
  if (err instanceof Error && /unexpected reply|not a lease|not a generation counter/i.test(err.message)) return err.message.slice(0, 200);
  return null;
}

function fromOutcome(o: StepOutcome): Decision {
  if (o.status === 'applied') return { kind: 'transition', event: o.event };
  if (o.status === 'refused') return { kind: 'refused' };
  return { kind: 'error', message: `${o.status}: ${o.note}` };
}

async function perform(d: FencingDriver, s: FencingState, a: Attempt): Promise<{ decision: Decision; note: string }> {
  const event = (ev: FencingEvent) => d.apply(ev).then((o) => ({ decision: fromOutcome(o), note: o.note }));
  switch (a.kind) {
    case 'acquire':
      return event({ type: `Acquire${s.version[a.p]!}`, p: a.p });
    case 'renew': {
      const r = await d.renew(a.p);
      if (r === null) throw new Error(`conform: ${a.p} remembers nothing to renew`);
      if (r.kind === 'ok') return { decision: { kind: 'renewed', where: r.where }, note: `renew: ok ${r.where}` };
      if (r.kind === 'migrated') return { decision: { kind: 'transition', event: { type: 'MigrateB', p: a.p } }, note: `renew: migrated ${r.gen}` };
      return { decision: { kind: 'refused' }, note: `renew: ${r.kind}` };
    }
    case 'release': {
      const r = await d.release(a.p);
      if (r === null) throw new Error(`conform: ${a.p} remembers nothing to release`);
      if (r.kind === 'released') return { decision: { kind: 'transition', event: { type: r.where === 'old' ? 'ExpireOld' : 'ExpireNew' } }, note: `release: ${r.where}` };
      return { decision: { kind: 'refused' }, note: 'release: notheld' };
    }
    case 'upgrade':
      return event({ type: 'UpgradePod', p: a.p });
    case 'downgrade':
      return event({ type: 'DowngradePod', p: a.p });
    case 'expire':
      return event({ type: a.which === 'old' ? 'ExpireOld' : 'ExpireNew' });
    case 'gate':
      return event({ type: a.step });
  }
}

export interface ExecContext {
  readonly rig: TourRig;
  readonly scripts: FencingScripts;
  readonly patch?: ImplPatch;
  readonly bounds: FencingBounds;
  /** The TTL the pods' scripts set (acquire, renew, migrate). */
  readonly leaseTtlMs: number;
  /** The TTL an injected lease starts with: below leaseTtlMs, so a renewal that reaches the wrong key shows. */
  readonly injectedTtlMs: number;
}

/** A fresh session in a model state, and the step driver that acts on it (retargeted to it at the first attempt). */
export interface FencingInstance {
  readonly session: SessionRef;
  readonly keys: SessionKeys;
  /** The state the session was put into. */
  readonly state: FencingState;
  /** What the attempt's pod remembers (a renew or release by a pod with its own, a lost or another pod's generation). */
  readonly held: Partial<Record<Pod, number>>;
  /**
   * The injection's writes, sent but not awaited: the attempt's commands are sent behind them on
   * the same connection (on a Cluster, the connection of each key's slot) and run after them, and
   * both leave in one batch of writes (rig.ts injectKeyspace). Awaited with the attempt.
   */
  readonly injected: Promise<void>;
  driver: FencingDriver | null;
}

/** What the step checks read beside the state: the keys' PTTLs and T3 on the wire. */
export interface FencingObservation {
  readonly ttl: Readonly<Record<KeyRole, number>>;
  /** The keyspace as read back, value by key role (null: no key): the observed digest covers it. */
  readonly values: Readonly<Record<KeyRole, string | null>>;
  readonly keys: SessionKeys;
  /** T3 on the wire: a CROSSSLOT rejection, or an old key among a script's KEYS after the door. */
  readonly breaches: readonly string[];
}

/** What pod a.p remembers for a renew or release attempt; nothing for the others. */
function memory(a: Attempt | null): Partial<Record<Pod, number>> {
  return a !== null && (a.kind === 'renew' || a.kind === 'release') ? { [a.p]: a.gen } : {};
}

function leaseOf(v: string | null): Lease {
  const l = decodeLease(v);
  return l ? { owner: l.owner as Pod, gen: l.gen } : { owner: NONE, gen: 0 };
}

/** The tour's real side for fencing: injection on fresh sessions of the rig. */
export function fencingReal(ctx: ExecContext): TourReal<FencingState, Attempt, Decision, FencingInstance, FencingObservation> {
  const { rig } = ctx;
  // Drivers are reused (retargeted to each instance's session and state), not built per attempt:
  // at most as many exist as attempts were ever in flight at once.
  const idle: FencingDriver[] = [];
  const make = (): FencingDriver => {
    let driver: FencingDriver | undefined;
    driver = createFencingDriver(rig.topologies.disabled, {
      bounds: ctx.bounds,
      scripts: ctx.scripts,
      ...(ctx.patch ? { patch: ctx.patch } : {}),
      session: rig.session(),
      ttlMs: ctx.leaseTtlMs,
      expiry: 'ttl',
      door: sessionDoor(rig, () => driver!.session),
      connections: { standalone: rig.conns.disabled, current: rig.conns.disabled },
    });
    return driver;
  };
  const driverOf = (inst: FencingInstance): FencingDriver => {
    if (inst.driver) return inst.driver;
    const d = idle.pop() ?? make();
    d.retarget({ session: inst.session, current: rig.conns[inst.state.mode], initial: { state: inst.state, held: inst.held } });
    return (inst.driver = d);
  };
  return {
    reach: {
      kind: 'inject',
      async inject(s, a) {
        const session = rig.session();
        const keys = sessionKeys(session);
        const injected = injectKeyspace(rig.conns[s.mode], keys, s, ctx.injectedTtlMs);
        injected.catch(() => {}); // awaited with the attempt (or by dispose); never unhandled meanwhile
        return { session, keys, state: s, held: memory(a), injected, driver: null };
      },
    },
    async attempt(inst, a): Promise<Outcome<Decision>> {
      const run = perform(driverOf(inst), inst.state, a).catch((err: unknown): Outcome<Decision> => {
        const why = scriptFailure(err);
        if (why === null) throw err;
        return { decision: { kind: 'error', message: why }, note: why };
      });
      const [, out] = await Promise.all([inst.injected, run]);
      return out;
    },
    async read(inst): Promise<Readback<FencingState, FencingObservation>> {
      await inst.injected;
      const mode = inst.driver?.mode ?? inst.state.mode;
      let state: FencingState;
      let ttl: FencingObservation['ttl'];
      let raw: FencingObservation['values'];
      try {
        const back = await readKeyspace(rig.conns[mode], inst.keys);
        ttl = back.ttl;
        const { values } = back;
        raw = values;
        const records = inst.driver ? inst.driver.records() : inst.state;
        state = {
          version: { ...records.version },
          target: records.target,
          oldLease: leaseOf(values.oldLease),
          newLease: leaseOf(values.newLease),
          oldGen: decodeCounter(values.oldGen),
          newGen: decodeCounter(values.newGen),
          backfilled: records.backfilled,
          mode: records.mode,
          lastIssued: records.lastIssued,
          monoOk: records.monoOk,
        };
      } catch (err) {
        if (err instanceof RangeError || scriptFailure(err) !== null) throw new TourObservationError(`the keyspace read back is no model state: ${(err as Error).message}`);
        throw err;
      }
      const breaches = inst.driver ? inst.driver.takeSlotBreaches().map((b) => `${b.script} ${b.what}`) : [];
      return { state, observation: { ttl, values: raw, keys: inst.keys, breaches } };
    },
    async dispose(inst) {
      await inst.injected.catch(() => {});
      if (inst.driver) idle.push(inst.driver);
      inst.driver = null;
    },
  };
}
