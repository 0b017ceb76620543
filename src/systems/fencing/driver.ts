/**
 * The step driver: applies one FencingEvent to the real system and projects the real keyspace back
 * onto the model's variables. Pods are simulated (each runs its version's scripts); phases, target,
 * backfill record and mode are the harness's own deploy records; leases and counters are read from
 * Valkey. Phase and door steps go through the deployment gate, as a deploy pipeline would.
 * Used by the property runs, the mutant runner and `fencecheck trace replay`.
 */
import type { FencingEvent } from '../../../models/fencing/index.js';
import { OutcomeUnknownError, type Topology, type ValkeyClient, closeClient } from '../../valkey/index.js';
import { classifyFault } from '../../valkey/fault.js';
import { createGate, type Gate, type GateDecision } from './gate/gate.js';
import { isGateStep, type GateStep } from './gate/rules.js';
import type { GateObservations } from './gate/observations.js';
import { observeKeyspace } from './gate/observe.js';
import { DEFAULT_BOUNDS, NONE, PHASES, type FencingBounds, type FencingState, type Lease, type Mode, type Phase, type Pod } from './state.js';
import { newLeaseKey, sessionKeys, type SessionKeys, type SessionRef } from './keys.js';
import { keySlot, SLOT_COUNT } from '../../valkey/slots.js';
import { DEFAULT_LEASE_TTL_MS, decodeCounter, decodeLease } from './encoding.js';
import { loadFencingScripts, type FencingScripts } from './scripts.js';
import type { ImplPatch } from './patch.js';
import { fencingClient, operatorClient, type FencingClient, type ReleaseResult, type RenewResult, type ScriptCall } from './clients/index.js';
import type { DoorBackend } from './door.js';

export type ExpiryMode = 'release' | 'ttl';

export interface FencingDriverOptions {
  readonly patch?: ImplPatch;
  readonly bounds?: FencingBounds;
  readonly session?: SessionRef;
  /** TTL of every acquired lease (default 30 s: nothing expires unless a step says so). */
  readonly ttlMs?: number;
  /** How ExpireOld/ExpireNew lose the lease: the owner releases it, or its TTL really elapses. */
  readonly expiry?: ExpiryMode;
  /** The cluster the keyspace is carried onto at EnterCompatible; without one, door steps are refused as not possible. */
  readonly door?: DoorBackend;
  /** Scripts already loaded with this patch (a suite loads them once). */
  readonly scripts?: FencingScripts;
  /**
   * Shared connections (the conformance tour): `standalone` for mode disabled and `current` for the
   * injected state's mode. The driver neither opens nor closes them.
   */
  readonly connections?: { readonly standalone: ValkeyClient; readonly current: ValkeyClient };
  /**
   * Start in this state instead of Init: the deploy records (versions, target, backfill record, mode,
   * T2's history) and what each pod remembers holding. The keyspace itself is the caller's to write.
   */
  readonly initial?: { readonly state: FencingState; readonly held?: Readonly<Partial<Record<Pod, number>>> };
}

export type StepStatus = 'applied' | 'refused' | 'ambiguous' | 'skipped';

export interface StepOutcome {
  readonly event: FencingEvent;
  readonly status: StepStatus;
  /** What happened, for humans: the script reply or the gate's reason. */
  readonly note: string;
  /** The generation a script returned as issued. */
  readonly issued?: number;
  readonly gate?: GateDecision;
}

/** A T3 breach seen on the wire after the door: a CROSSSLOT rejection, or an old key among a script's KEYS. */
export interface SlotBreach {
  readonly script: string;
  readonly what: string;
}

export interface FencingDriver {
  readonly session: SessionRef;
  readonly keys: SessionKeys;
  readonly bounds: FencingBounds;
  readonly gate: Gate;
  apply(ev: FencingEvent, model?: FencingState): Promise<StepOutcome>;
  /** The real keyspace (leases, counters) plus the harness's records, as the model's variables. */
  observe(): Promise<FencingState>;
  /** The deploy records alone (what observe() adds to the keyspace), for a caller that reads the keyspace itself. */
  records(): DeployRecords;
  /**
   * The same driver on another session in another state, as if made with these `session`,
   * `connections.current` and `initial` options (the tour reuses its drivers instead of building
   * one per attempt). Its gate, scripts, door and standalone connection stay.
   */
  retarget(next: { readonly session: SessionRef; readonly current: ValkeyClient; readonly initial: { readonly state: FencingState; readonly held?: Readonly<Partial<Record<Pod, number>>> } }): void;
  /** The client a pod of this version would use, on the current topology. */
  client(version: Phase): FencingClient;
  /** What pod p remembers holding (its last issued generation), if anything. */
  remembered(p: Pod): number | undefined;
  /** Sets what pod p remembers holding (a replayed attempt by a pod with a stale or foreign memory). */
  remember(p: Pod, gen: number | undefined): void;
  /** Pod p's renew tick with its version's script (B: migrate-then-renew); null when p remembers no lease. */
  renew(p: Pod): Promise<RenewResult | null>;
  /** Pod p releases the lease it remembers with its version's script (a lost lease: a no-op). */
  release(p: Pod): Promise<ReleaseResult | null>;
  /**
   * The gate's inputs, read now from the real system. Given a step, only what that step's rules read:
   * the pre-G3 CLUSTER KEYSLOT check is asked for EnterCompatible alone.
   */
  gateObservations(step?: GateStep): Promise<GateObservations>;
  /** T3 breaches since the door (drained by the caller). */
  takeSlotBreaches(): SlotBreach[];
  readonly mode: Mode;
  close(): Promise<void>;
}

/** The deploy pipeline's records: the model's variables that are not in the keyspace. */
export type DeployRecords = Pick<FencingState, 'version' | 'target' | 'backfilled' | 'mode' | 'lastIssued' | 'monoOk'>;

interface Records {
  version: Record<Pod, Phase>;
  target: Phase;
  backfilled: boolean;
  mode: Mode;
  lastIssued: number;
  monoOk: boolean;
}

let sessionCounter = 0;
/**
 * A fresh session per driver, so runs never share keys. Its tagged pair hashes outside the first
 * third of the slots, so that Enable's reshard moves it live (the first primary keeps that third).
 */
export function freshSession(): SessionRef {
  for (;;) {
    sessionCounter += 1;
    const s = { community: `fc${process.pid}`, session: `s${Date.now().toString(36)}${sessionCounter}` };
    if (keySlot(newLeaseKey(s)) >= SLOT_COUNT / 3) return s;
  }
}

const rank = (p: Phase) => PHASES.indexOf(p);
const isCrossSlot = (err: unknown) => err instanceof Error && /CROSSSLOT/.test(err.message);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createFencingDriver(topology: Topology, opts: FencingDriverOptions = {}): FencingDriver {
  const bounds = opts.bounds ?? DEFAULT_BOUNDS;
  let session = opts.session ?? freshSession();
  let keys = sessionKeys(session);
  const ttlMs = opts.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const expiry = opts.expiry ?? 'release';
  const scripts = opts.scripts ?? loadFencingScripts(opts.patch);
  const gate = createGate({ drop: opts.patch?.dropGateRules ?? [], ...(opts.patch?.gateRules ? { rewrite: opts.patch.gateRules } : {}) });
  const door = opts.door;
  const ownsConnection = opts.connections === undefined;
  const standalone = opts.connections?.standalone ?? topology.client();
  let conn: ValkeyClient = opts.connections?.current ?? standalone;
  const recordsOf = (start: FencingState | undefined): Records =>
    start
      ? { version: { ...start.version }, target: start.target, backfilled: start.backfilled, mode: start.mode, lastIssued: start.lastIssued, monoOk: start.monoOk }
      : {
          version: Object.fromEntries(bounds.pods.map((p) => [p, 'O'])) as Record<Pod, Phase>,
          target: 'O',
          backfilled: false,
          mode: 'disabled',
          lastIssued: 0,
          monoOk: true,
        };
  let rec: Records = recordsOf(opts.initial?.state);
  const held = new Map<Pod, number>();
  const remembering = (h: Readonly<Partial<Record<Pod, number>>> | undefined) => {
    held.clear();
    for (const [p, g] of Object.entries(h ?? {}) as [Pod, number | undefined][]) if (g !== undefined) held.set(p, g);
  };
  remembering(opts.initial?.held);
  const versionOf = (p: Pod): Phase => {
    const v = rec.version[p];
    if (v === undefined) throw new RangeError(`unknown pod ${p} (bounds: ${bounds.pods.join(', ')})`);
    return v;
  };
  const breaches: SlotBreach[] = [];
  let oldKeys = new Set([keys.oldLease, keys.oldGen]);

  const onCall = (call: ScriptCall) => {
    if (rec.mode !== 'disabled') {
      const old = call.keys.filter((k) => oldKeys.has(k));
      if (old.length > 0) breaches.push({ script: call.script, what: `consults old key(s) ${old.join(', ')} after the door` });
    }
  };
  const client = (version: Phase) => fencingClient(version, { conn, scripts, session, onCall });
  /** Runs a pod's script; a CROSSSLOT rejection is recorded as a T3 breach and rethrown. */
  const guarded = async <T>(script: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (isCrossSlot(err)) breaches.push({ script, what: `rejected with CROSSSLOT: ${(err as Error).message}` });
      throw err;
    }
  };

  const readLease = async (key: string): Promise<Lease> => {
    const l = decodeLease(await conn.get(key));
    return l ? { owner: l.owner as Pod, gen: l.gen } : { owner: NONE, gen: 0 };
  };
  const readCounter = async (key: string) => decodeCounter(await conn.get(key));

  const issue = (p: Pod, g: number) => {
    rec.monoOk = rec.monoOk && g > rec.lastIssued;
    rec.lastIssued = g;
    held.set(p, g);
  };

  async function observe(): Promise<FencingState> {
    const [oldLease, newLease, oldGen, newGen] = await Promise.all([readLease(keys.oldLease), readLease(keys.newLease), readCounter(keys.oldGen), readCounter(keys.newGen)]);
    return {
      version: { ...rec.version },
      target: rec.target,
      oldLease,
      newLease,
      oldGen,
      newGen,
      backfilled: rec.backfilled,
      mode: rec.mode,
      lastIssued: rec.lastIssued,
      monoOk: rec.monoOk,
    };
  }

  const operator = () => operatorClient(conn, scripts);

  /**
   * observe(), retried while the server is still running the script (BUSY, up to 30 s) or the
   * connection is being re-established (up to 2 s); a server that stays gone is a fault at once.
   */
  async function settledObserve(): Promise<FencingState> {
    const started = Date.now();
    for (;;) {
      try {
        return await observe();
      } catch (err) {
        const kind = classifyFault(err)?.kind;
        const limit = kind === 'busy' ? 30_000 : kind === 'connection-lost' ? 2_000 : -1;
        if (Date.now() - started > limit) throw err;
        await sleep(20);
      }
    }
  }

  async function gateObservations(step?: GateStep): Promise<GateObservations> {
    const ks = await observeKeyspace(conn, scripts, [session]);
    const obs: GateObservations = {
      podPhases: { ...rec.version },
      target: rec.target,
      mode: rec.mode,
      backfilled: rec.backfilled,
      oldLeaseCensus: ks.oldLeaseCensus,
      newLeaseCensus: ks.newLeaseCensus,
      counters: ks.counters,
      keyslot: door && (step === undefined || step === 'EnterCompatible') ? await door.keyslotCheck([keys.newLease, keys.newGen]) : null,
    };
    // A patch may change what the deploy records tell the gate (an implementation-layer mutant).
    return opts.patch?.observations ? opts.patch.observations(obs) : obs;
  }

  async function acquire(ev: FencingEvent & { p: Pod }, version: Phase): Promise<StepOutcome> {
    const c = client(version);
    try {
      const r = await guarded(`${version}/acquire`, () => c.acquire(ev.p, { ttlMs, maxGen: bounds.maxGen }));
      if (r.kind === 'ok') {
        issue(ev.p, r.gen);
        return { event: ev, status: 'applied', note: `issued ${r.gen}`, issued: r.gen };
      }
      return { event: ev, status: 'refused', note: r.kind === 'held' ? `held by ${r.owner}/${r.gen}` : `MaxGen ${r.maxGen} reached` };
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError)) throw err;
      // Never re-sent. The harness (not the pod) reads the keyspace to keep T2's history honest,
      // once the server answers again (it may still be running the script: BUSY).
      const after = await settledObserve();
      const lease = version === 'O' || version === 'A' ? after.oldLease : after.newLease;
      if (lease.owner === ev.p && lease.gen > rec.lastIssued) {
        rec.monoOk = rec.monoOk && lease.gen > rec.lastIssued;
        rec.lastIssued = lease.gen;
        return { event: ev, status: 'ambiguous', note: `reply lost; the keyspace shows ${lease.gen} was issued`, issued: lease.gen };
      }
      return { event: ev, status: 'ambiguous', note: 'reply lost; nothing was issued' };
    }
  }

  async function migrate(ev: FencingEvent & { p: Pod }): Promise<StepOutcome> {
    const gen = held.get(ev.p);
    if (gen === undefined) return { event: ev, status: 'refused', note: `${ev.p} holds no lease to renew` };
    const version = versionOf(ev.p);
    if (version !== 'B') return { event: ev, status: 'skipped', note: `${ev.p} runs ${version}, not B` };
    const r = await guarded('B/renew', () => client('B').renew(ev.p, gen, ttlMs));
    if (r.kind === 'migrated') return { event: ev, status: 'applied', note: `moved ${ev.p}/${gen} to the new key` };
    return { event: ev, status: 'refused', note: `renew: ${r.kind}` };
  }

  /** Lease loss: the owner releases (its version's script), or the TTL really elapses. */
  async function expire(ev: FencingEvent, which: 'old' | 'new'): Promise<StepOutcome> {
    const key = which === 'old' ? keys.oldLease : keys.newLease;
    const lease = await readLease(key);
    if (lease.owner === NONE) return { event: ev, status: 'refused', note: `no live ${which} lease` };
    const owner = lease.owner as Pod;
    const version = versionOf(owner);
    const reaches = version === 'B' || (which === 'old' ? version === 'O' || version === 'A' : version === 'C');
    const gen = held.get(owner);
    if (expiry === 'release' && reaches && gen !== undefined) {
      const r = await guarded(`${version}/release`, () => client(version).release(owner, gen));
      if (r.kind === 'released' && r.where === which) {
        held.delete(owner);
        return { event: ev, status: 'applied', note: `${owner} released ${which}/${gen}` };
      }
    }
    // The owner died or its script cannot reach this key: the TTL runs out for real.
    await conn.pexpire(key, 5);
    const deadline = Date.now() + 2000;
    while ((await conn.exists(key)) === 1) {
      if (Date.now() > deadline) throw new Error(`lease ${key} did not expire`);
      await sleep(2);
    }
    return { event: ev, status: 'applied', note: `${which} lease ${owner}/${lease.gen} expired (TTL)` };
  }

  function rollout(ev: FencingEvent & { p: Pod }, up: boolean): StepOutcome {
    const v = versionOf(ev.p);
    const ok = up ? rank(v) + 1 === rank(rec.target) : rank(v) > rank(rec.target);
    if (!ok) return { event: ev, status: 'refused', note: `rollout: ${ev.p} at ${v}, target ${rec.target}` };
    rec.version[ev.p] = rec.target;
    return { event: ev, status: 'applied', note: `${ev.p}: ${v} → ${rec.target}` };
  }

  async function gateStep(ev: FencingEvent, step: GateStep): Promise<StepOutcome> {
    if ((step === 'EnterCompatible' || step === 'RevertDisabled' || step === 'Enable') && !door) {
      return { event: ev, status: 'skipped', note: 'no door cluster in this run' };
    }
    const decision = gate.decide(step, await gateObservations(step));
    if (!decision.allowed) {
      return { event: ev, status: 'refused', note: decision.refusedBy.map((r) => `${r.rule}: ${r.reason}`).join('; '), gate: decision };
    }
    const before = { target: rec.target, backfilled: rec.backfilled };
    const done = (note: string): StepOutcome => {
      // A patch may change what the allowed step records (an implementation-layer patch, src/systems/fencing/patch.ts).
      if (opts.patch?.gateRecords) {
        const r = opts.patch.gateRecords(step, { target: rec.target, backfilled: rec.backfilled }, before);
        if (!PHASES.includes(r.target)) throw new RangeError(`patch gateRecords: ${String(r.target)} is no phase (${PHASES.join(', ')})`);
        const changed = r.target !== rec.target || r.backfilled !== rec.backfilled;
        rec.target = r.target;
        rec.backfilled = r.backfilled;
        if (changed) return { event: ev, status: 'applied', note: `${note} (the patch records target ${r.target}, backfilled ${r.backfilled})`, gate: decision };
      }
      return { event: ev, status: 'applied', note, gate: decision };
    };
    switch (step) {
      case 'AdvanceTarget':
        rec.target = PHASES[rank(rec.target) + 1]!;
        return done(`target → ${rec.target}`);
      case 'RollbackPhase':
        rec.target = PHASES[rank(rec.target) - 1]!;
        rec.backfilled = false;
        return done(`target → ${rec.target}; backfill record cleared`);
      case 'Backfill': {
        const v = await operator().backfill(session);
        rec.backfilled = true;
        return done(`new counter = ${v}`);
      }
      case 'ReverseMerge':
        return done(`old counter = ${await operator().reverseMerge(session)}`);
      case 'EnterCompatible':
        conn = await door!.enter(standalone, [keys.oldLease, keys.oldGen, keys.newLease, keys.newGen]);
        rec.mode = 'compatible';
        return done('keyspace carried onto the one-shard cluster');
      case 'RevertDisabled':
        await door!.revert(standalone, [keys.oldLease, keys.oldGen, keys.newLease, keys.newGen]);
        conn = standalone;
        rec.mode = 'disabled';
        return done('keyspace carried back to the standalone node');
      case 'Enable': {
        const next = await door!.enable([keys.newLease, keys.newGen]);
        if (next) conn = next;
        rec.mode = 'enabled';
        return done('resharding onto 3 shards under way');
      }
    }
  }

  async function apply(ev: FencingEvent): Promise<StepOutcome> {
    switch (ev.type) {
      case 'AcquireO':
      case 'AcquireA':
      case 'AcquireB':
      case 'AcquireC': {
        const version = ev.type.slice(-1) as Phase;
        if (versionOf(ev.p) !== version) return { event: ev, status: 'skipped', note: `${ev.p} runs ${versionOf(ev.p)}, not ${version}` };
        return acquire(ev, version);
      }
      case 'MigrateB':
        return migrate(ev);
      case 'UpgradePod':
        return rollout(ev, true);
      case 'DowngradePod':
        return rollout(ev, false);
      case 'ExpireOld':
        return expire(ev, 'old');
      case 'ExpireNew':
        return expire(ev, 'new');
      default:
        if (!isGateStep(ev.type)) throw new RangeError(`unknown event ${ev.type}`);
        return gateStep(ev, ev.type);
    }
  }

  return {
    get session() {
      return session;
    },
    get keys() {
      return keys;
    },
    bounds,
    gate,
    retarget(next) {
      session = next.session;
      keys = sessionKeys(session);
      oldKeys = new Set([keys.oldLease, keys.oldGen]);
      conn = next.current;
      rec = recordsOf(next.initial.state);
      remembering(next.initial.held);
      breaches.length = 0;
    },
    apply,
    observe,
    records: () => ({ version: { ...rec.version }, target: rec.target, backfilled: rec.backfilled, mode: rec.mode, lastIssued: rec.lastIssued, monoOk: rec.monoOk }),
    client,
    remembered: (p) => held.get(p),
    remember(p, gen) {
      versionOf(p);
      if (gen === undefined) held.delete(p);
      else held.set(p, gen);
    },
    async renew(p) {
      const gen = held.get(p);
      if (gen === undefined) return null;
      const v = versionOf(p);
      return guarded(`${v}/renew`, () => client(v).renew(p, gen, ttlMs));
    },
    async release(p) {
      const gen = held.get(p);
      if (gen === undefined) return null;
      const v = versionOf(p);
      const r = await guarded(`${v}/release`, () => client(v).release(p, gen));
      if (r.kind === 'released') held.delete(p);
      return r;
    },
    gateObservations,
    takeSlotBreaches: () => breaches.splice(0),
    get mode() {
      return rec.mode;
    },
    async close() {
      if (ownsConnection) await closeClient(standalone);
    },
  };
}
