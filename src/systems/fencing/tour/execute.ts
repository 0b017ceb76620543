/**
 * Fencing's real side of the tour: a fresh session is put into exactly the state (its keyspace
 * written directly, the deploy records and the pod's memory given to the step driver), the attempt
 * runs through the same scripts, gate and door the pods and the pipeline use, and the keyspace is
 * read back (values and TTLs). Nothing here compares with the model: that is the engine's job
 * (src/seam/tour/tour.ts).
 */
import { ReplyError } from 'ioredis';
import { createFencingDriver, type FencingDriver, type StepOutcome } from '../driver.js';
import { sessionKeys, type KeyRole, type SessionKeys } from '../keys.js';
import type { FencingScripts } from '../scripts.js';
import type { ImplPatch } from '../patch.js';
import type { FencingBounds, FencingState, Pod } from '../state.js';
import type { FencingEvent } from '../../../../models/fencing/index.js';
import { classifyFault } from '../../../valkey/fault.js';
import { TourObservationError, type Outcome, type Readback, type TourReal } from '../../../seam/tour/system.js';
import type { SessionRef } from '../keys.js';
import type { Attempt, Decision } from './attempts.js';
import { injectKeyspace, readTtls, tourDoor, type TourRig } from './rig.js';

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

/** A fresh session in a model state, and the step driver that acts on it. */
export interface FencingInstance {
  readonly session: SessionRef;
  readonly keys: SessionKeys;
  /** The state the session was put into. */
  readonly state: FencingState;
  readonly driver: FencingDriver;
}

/** What the step checks read beside the state: the keys' PTTLs and T3 on the wire. */
export interface FencingObservation {
  readonly ttl: Readonly<Record<KeyRole, number>>;
  readonly keys: SessionKeys;
  /** T3 on the wire: a CROSSSLOT rejection, or an old key among a script's KEYS after the door. */
  readonly breaches: readonly string[];
}

/** What pod a.p remembers for a renew or release attempt; nothing for the others. */
function memory(a: Attempt | null): Partial<Record<Pod, number>> {
  return a !== null && (a.kind === 'renew' || a.kind === 'release') ? { [a.p]: a.gen } : {};
}

/** The tour's real side for fencing: injection on fresh sessions of the rig. */
export function fencingReal(ctx: ExecContext): TourReal<FencingState, Attempt, Decision, FencingInstance, FencingObservation> {
  const { rig } = ctx;
  return {
    reach: {
      kind: 'inject',
      async inject(s, a) {
        const session = rig.session();
        const keys = sessionKeys(session);
        await injectKeyspace(rig.conns[s.mode], keys, s, ctx.injectedTtlMs);
        const driver = createFencingDriver(rig.topologies.disabled, {
          bounds: ctx.bounds,
          scripts: ctx.scripts,
          ...(ctx.patch ? { patch: ctx.patch } : {}),
          session,
          ttlMs: ctx.leaseTtlMs,
          expiry: 'ttl',
          door: tourDoor(rig, session),
          connections: { standalone: rig.conns.disabled, current: rig.conns[s.mode] },
          initial: { state: s, held: memory(a) },
        });
        return { session, keys, state: s, driver };
      },
    },
    async attempt(inst, a): Promise<Outcome<Decision>> {
      try {
        return await perform(inst.driver, inst.state, a);
      } catch (err) {
        const why = scriptFailure(err);
        if (why === null) throw err;
        return { decision: { kind: 'error', message: why }, note: why };
      }
    },
    async read(inst): Promise<Readback<FencingState, FencingObservation>> {
      const { driver, keys } = inst;
      let state: FencingState;
      try {
        state = await driver.observe();
      } catch (err) {
        if (scriptFailure(err) === null) throw err;
        throw new TourObservationError(`the keyspace read back is no model state: ${(err as Error).message}`);
      }
      const ttl = await readTtls(rig.conns[driver.mode], keys);
      const breaches = driver.takeSlotBreaches().map((b) => `${b.script} ${b.what}`);
      return { state, observation: { ttl, keys, breaches } };
    },
    dispose: (inst) => inst.driver.close(),
  };
}
