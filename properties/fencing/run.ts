/**
 * One model-based run: a sequence of intents executed on real Valkey through the step driver, the
 * XState model predicting every step (refusals included), the checks of checks.ts after each step.
 */
import { applyEffect, nextState, type FencingEvent } from '../../models/fencing/index.js';
import { brokenInvariants, type InvariantName } from '../../src/systems/fencing/invariants.js';
import { canonicalKey, initialState, PHASES, type FencingBounds, type FencingState, type Phase, type Pod } from '../../src/systems/fencing/state.js';
import { createFencingDriver, type ExpiryMode, type FencingDriver, type StepOutcome } from '../../src/systems/fencing/driver.js';
import type { DoorBackend } from '../../src/systems/fencing/door.js';
import type { FencingScripts } from '../../src/systems/fencing/scripts.js';
import type { ImplPatch } from '../../src/systems/fencing/patch.js';
import type { Topology } from '../../src/valkey/index.js';
import type { GateStep } from '../../src/systems/fencing/gate/rules.js';
import { InfrastructureFault } from '../../src/valkey/fault.js';
import { checkReadSide, firstBrokenInvariant, type CheckFailure, type CheckSet } from './checks.js';
import { intentLabel, isPipelineIntent, type Intent, type PipelineIntent, type StepIntent } from './intents.js';

export interface RunContext {
  readonly topology: Topology;
  readonly door?: DoorBackend;
  readonly scripts: FencingScripts;
  readonly patch?: ImplPatch;
  readonly bounds: FencingBounds;
  readonly checks: CheckSet;
  readonly ttlMs?: number;
}

export interface StepRecord {
  readonly intent: string;
  /** The model event the step performed or attempted (none for a renew that only extends a TTL). */
  readonly event?: FencingEvent;
  readonly status: StepOutcome['status'] | 'stutter';
  readonly note: string;
  readonly predicted: FencingState;
  readonly observed: FencingState;
  /** The gate let through a step the model forbids; the model followed with applyEffect. */
  readonly followed?: boolean;
}

export interface RunFailure extends CheckFailure {
  readonly step: number;
  readonly brokenAtEnd: readonly InvariantName[];
}

export interface RunResult {
  /** The real system before the first step, as the driver observes it (a fresh session). */
  readonly initial: FencingState;
  readonly records: readonly StepRecord[];
  readonly failure: RunFailure | null;
  /** Intents executed (including refused attempts). */
  readonly commands: number;
  readonly crossedDoor: boolean;
  readonly enabled: boolean;
  /** ASK redirects clients met during this run's live reshard. */
  readonly askRedirects: number;
  /** Commands run after the door (on the cluster) and the time they took, checks included. */
  readonly clusterCommands: number;
  readonly clusterMs: number;
}

const rank = (p: Phase) => PHASES.indexOf(p);

/** The event a pod's intent performs, given the version it runs now. */
function podEvent(kind: 'acquire' | 'upgrade' | 'downgrade', p: Pod, v: Phase): FencingEvent {
  if (kind === 'upgrade') return { type: 'UpgradePod', p };
  if (kind === 'downgrade') return { type: 'DowngradePod', p };
  return { type: `Acquire${v}`, p };
}

/**
 * The deploy pipeline, in its current direction. It asks the gate for the next phase step first and
 * rolls pods out only when the gate refuses (a hurried pipeline: the gate is what keeps it adjacent).
 * Rolling back it follows the documented procedure: the reverse merge when the gate asks for it
 * before the rollback into O. After an emergency rollback into O it holds (finishing the
 * downgrades) until someone asks for an advance again (an explicit AdvanceTarget intent).
 */
async function deployEvent(d: FencingDriver, s: FencingState, door: boolean, pipe: Pipeline, prefer: Pod): Promise<FencingEvent | null> {
  // The rollout replaces pods in no fixed order: the intent names the pod it would rather roll.
  const pods = [prefer, ...(Object.keys(s.version) as Pod[]).filter((p) => p !== prefer)];
  const obs = await d.gateObservations();
  if (pipe.direction === 'back' && s.mode !== 'disabled') pipe.direction = 'forward';
  if (pipe.direction === 'back') {
    const rb = d.gate.decide('RollbackPhase', obs);
    if (rb.allowed) return { type: 'RollbackPhase' };
    if (rb.refusedBy.some((r) => r.rule === 'RollbackToO_ReverseMerged')) return { type: 'ReverseMerge' };
  } else {
    const steps: GateStep[] = ['AdvanceTarget', ...(s.backfilled ? [] : (['Backfill'] as const)), ...(door ? (['EnterCompatible', 'Enable'] as const) : [])];
    const step = steps.find((st) => d.gate.decide(st, obs).allowed);
    if (step) return { type: step };
  }
  const lagging = pods.find((p) => rank(s.version[p]!) + 1 === rank(s.target));
  if (lagging) return { type: 'UpgradePod', p: lagging };
  const above = pods.find((p) => rank(s.version[p]!) > rank(s.target));
  if (above) return { type: 'DowngradePod', p: above };
  return null;
}

/** Which way the simulated deploy pipeline is going: an explicit rollback turns it back. */
interface Pipeline {
  direction: 'forward' | 'back';
}

/** Steps one pipeline intent may take: O→C is 3 advances, 9 pod rolls and a backfill. */
const PIPELINE_STEP_LIMIT = 16;

/**
 * The next step of a whole pipeline intent, or null when it is done: a rollout ships forward until
 * the target is `to` and the fleet (a canary: one pod) runs it; a retreat rolls back (reverting the mode door first, as
 * the runbook says) until the target is `to` and no pod runs above it. The gate decides each step.
 */
function pipelineStep(intent: PipelineIntent, s: FencingState, pipe: Pipeline): StepIntent | null {
  const pods = Object.values(s.version);
  if (intent.kind === 'rollout') {
    if (rank(s.target) >= rank(intent.to) && (intent.canary ? pods.some((v) => v === s.target) : pods.every((v) => v === s.target))) return null;
    pipe.direction = 'forward';
    return { kind: 'deploy', p: intent.p };
  }
  if (s.mode === 'enabled') return null; // the one-way door: nothing rolls back past it
  if (s.mode === 'compatible') return { kind: 'gate', step: 'RevertDisabled' };
  if (rank(s.target) <= rank(intent.to) && pods.every((v) => rank(v) <= rank(s.target))) return null;
  pipe.direction = 'back';
  return { kind: 'deploy', p: intent.p };
}

/** Which lease a pod's renew/release touches, per its version's script (the table's key rule). */
function expectedRelease(v: Phase, p: Pod, gen: number, s: FencingState): 'old' | 'new' | null {
  const mine = (l: FencingState['oldLease']) => l.owner === p && l.gen === gen;
  if ((v === 'B' || v === 'C') && mine(s.newLease)) return 'new';
  if (v !== 'C' && mine(s.oldLease)) return 'old';
  return null;
}

export async function executeRun(ctx: RunContext, intents: readonly Intent[], expiry: ExpiryMode, onStep?: (r: StepRecord) => void): Promise<RunResult> {
  const driver = createFencingDriver(ctx.topology, {
    bounds: ctx.bounds,
    scripts: ctx.scripts,
    expiry,
    ...(ctx.patch ? { patch: ctx.patch } : {}),
    ...(ctx.door ? { door: ctx.door } : {}),
    ...(ctx.ttlMs !== undefined ? { ttlMs: ctx.ttlMs } : {}),
  });
  const records: StepRecord[] = [];
  let model = initialState(ctx.bounds);
  let observed = model;
  let initial = model;
  let crossedDoor = false;
  let enabled = false;
  let failure: RunFailure | null = null;
  let askRedirects = 0;
  let clusterCommands = 0;
  let clusterMs = 0;
  let asksBefore = 0;
  const pipe: Pipeline = { direction: 'forward' };
  // Everything after the driver opened its connection runs inside the try: the finally closes it on
  // every path (a door query that fails here used to leak the driver's client on every shrink attempt).
  let thrown: { error: unknown } | null = null;
  try {
    if (ctx.door) asksBefore = await ctx.door.askRedirects();
    // What the real system holds before the first step (trace validation's first line).
    initial = await driver.observe();
    for (const [i, intent] of intents.entries()) {
      // A pipeline intent is a chain of ordinary steps, each recorded and checked like any other.
      for (let k = 0; k < (isPipelineIntent(intent) ? Math.min(intent.pauseAfter ?? PIPELINE_STEP_LIMIT, PIPELINE_STEP_LIMIT) : 1); k++) {
        const step: StepIntent | null = isPipelineIntent(intent) ? pipelineStep(intent, observed, pipe) : intent;
        if (step === null) break;
        const onCluster = observed.mode !== 'disabled';
        const t0 = performance.now();
        const { event, outcome, predicted, mismatch, followed } = await performIntent(ctx, driver, step, model, observed, pipe).catch((err: unknown) => crossSlotRefusal(err, model));
        // A property run injects no faults: a reply lost on the way back is the infrastructure's.
        if (outcome.status === 'ambiguous') {
          throw new InfrastructureFault({ kind: 'connection-lost', reason: `the reply to ${event?.type ?? intentLabel(step)} was lost (${outcome.note}); the step's outcome is unknown` });
        }
        if (outcome.status === 'applied' && event?.type === 'EnterCompatible') crossedDoor = true;
        if (outcome.status === 'applied' && event?.type === 'Enable') enabled = true;
        observed = await driver.observe();
        const rec: StepRecord = {
          intent: isPipelineIntent(intent) ? `${intentLabel(intent)}#${k + 1}` : intentLabel(intent),
          ...(event ? { event } : {}),
          status: outcome.status,
          note: outcome.note,
          predicted,
          observed,
          ...(followed ? { followed } : {}),
        };
        records.push(rec);
        onStep?.(rec);
        const f = await checkStep(ctx, driver, observed, predicted, mismatch);
        // The door steps themselves (carrying the keyspace, resharding) are setup, not commands.
        if (onCluster && !(event && ['EnterCompatible', 'RevertDisabled', 'Enable'].includes(event.type))) {
          clusterCommands += 1;
          clusterMs += performance.now() - t0;
        }
        if (f) {
          failure = { ...f, step: i, brokenAtEnd: brokenInvariants(observed, ctx.bounds) };
          break;
        }
        // With conformance off (a mutant run) the model re-bases on the real system after each step.
        model = ctx.checks.conformance ? predicted : observed;
        // A pipeline intent stops when the pipeline has nothing to do or a step did not go through.
        if (isPipelineIntent(intent) && outcome.status !== 'applied') break;
      }
      if (failure) break;
    }
  } catch (err) {
    thrown = { error: err };
  }
  // Clean up on every path; an error here never hides the run's own error (which comes first).
  const cleanup: (() => Promise<void>)[] = [
    () => driver.close(),
    async () => {
      if (enabled && ctx.door && !thrown) askRedirects = (await ctx.door.askRedirects()) - asksBefore;
    },
    async () => {
      if (crossedDoor) await ctx.door?.reset();
    },
  ];
  for (const step of cleanup) {
    try {
      await step();
    } catch (err) {
      thrown ??= { error: err };
    }
  }
  if (thrown) throw thrown.error;
  return { initial, records, failure, commands: records.length, crossedDoor, enabled, askRedirects, clusterCommands, clusterMs };
}

interface Performed {
  readonly event: FencingEvent | null;
  readonly outcome: { readonly status: StepRecord['status']; readonly note: string };
  readonly predicted: FencingState;
  /** A pod's reply that differs from what the model implies (renew/release). */
  readonly mismatch: string | null;
  readonly followed: boolean;
}

async function performIntent(ctx: RunContext, d: FencingDriver, intent: StepIntent, model: FencingState, real: FencingState, pipe: Pipeline): Promise<Performed> {
  const b = ctx.bounds;
  const predict = (ev: FencingEvent) => nextState(model, ev, b);
  switch (intent.kind) {
    case 'renew': {
      const v = real.version[intent.p]!;
      const gen = d.remembered(intent.p);
      const ev: FencingEvent | null = v === 'B' ? { type: 'MigrateB', p: intent.p } : null;
      const next = ev ? predict(ev) : null;
      const r = await d.renew(intent.p);
      if (r === null) return { event: null, outcome: { status: 'stutter', note: `${intent.p} holds nothing to renew` }, predicted: model, mismatch: null, followed: false };
      const migrated = r.kind === 'migrated';
      // Renew extends the TTL of the lease the pod holds in its version's keyspace, or migrates (B).
      const holds = gen !== undefined && expectedRelease(v, intent.p, gen, model) !== null;
      const mismatch =
        migrated !== (next !== null)
          ? `${v}/renew by ${intent.p}/${gen}: ${r.kind}, the model ${next ? 'predicts MigrateB' : 'predicts no migration'}`
          : !migrated && (r.kind === 'ok') !== holds
            ? `${v}/renew by ${intent.p}/${gen}: ${r.kind}, the model says the pod ${holds ? 'holds' : 'does not hold'} it`
            : null;
      return { event: migrated ? ev : null, outcome: { status: migrated ? 'applied' : 'refused', note: `${v}/renew: ${r.kind}` }, predicted: next ?? model, mismatch, followed: false };
    }
    case 'release': {
      const v = real.version[intent.p]!;
      const gen = d.remembered(intent.p);
      const want = gen === undefined ? null : expectedRelease(v, intent.p, gen, model);
      const ev: FencingEvent | null = want === 'old' ? { type: 'ExpireOld' } : want === 'new' ? { type: 'ExpireNew' } : null;
      const r = await d.release(intent.p);
      const got = r?.kind === 'released' ? r.where : null;
      const mismatch = got !== want ? `${v}/release by ${intent.p}/${gen ?? '-'}: ${got ?? 'no-op'}, the model implies ${want ?? 'no-op'}` : null;
      const next = ev ? predict(ev) : null;
      return { event: ev, outcome: { status: got ? 'applied' : 'refused', note: `${v}/release: ${r?.kind ?? 'nothing remembered'}` }, predicted: next ?? model, mismatch, followed: false };
    }
    default: {
      let ev: FencingEvent | null;
      if (intent.kind === 'expire') ev = { type: intent.which === 'old' ? 'ExpireOld' : 'ExpireNew' };
      else if (intent.kind === 'gate') {
        ev = { type: intent.step };
        if (intent.step === 'RollbackPhase') pipe.direction = 'back';
        if (intent.step === 'AdvanceTarget') pipe.direction = 'forward';
      } else if (intent.kind === 'deploy') ev = await deployEvent(d, real, ctx.door !== undefined, pipe, intent.p);
      else ev = podEvent(intent.kind, intent.p, real.version[intent.p]!);
      if (ev === null) return { event: null, outcome: { status: 'skipped', note: 'nothing to deploy' }, predicted: model, mismatch: null, followed: false };
      const next = predict(ev);
      const outcome = await d.apply(ev, model);
      const gateStep = outcome.gate !== undefined;
      if (outcome.status === 'applied' && next === null && gateStep) {
        // The (mutated) gate allowed what the model forbids: follow the real system with the effect alone.
        return { event: ev, outcome, predicted: applyEffect(model, ev, b), mismatch: null, followed: true };
      }
      if (outcome.status === 'skipped') return { event: ev, outcome, predicted: model, mismatch: null, followed: false };
      const mismatch = gateStep && outcome.status === 'refused' && next !== null ? `the gate refused ${ev.type}, which the model allows: ${outcome.note}` : null;
      return { event: ev, outcome, predicted: outcome.status === 'applied' || next === null ? (next ?? model) : model, mismatch, followed: false };
    }
  }
}

/**
 * A script the cluster rejected with CROSSSLOT did not run: the step is refused, and the breach the
 * driver recorded is T3's finding (checkStep), not a run error. Anything else is rethrown.
 */
function crossSlotRefusal(err: unknown, model: FencingState): Performed {
  if (!(err instanceof Error && /^CROSSSLOT/.test(err.message))) throw err;
  return { event: null, outcome: { status: 'refused', note: err.message.split('\n')[0]! }, predicted: model, mismatch: null, followed: false };
}

async function checkStep(ctx: RunContext, d: FencingDriver, observed: FencingState, predicted: FencingState, mismatch: string | null): Promise<CheckFailure | null> {
  const inv = firstBrokenInvariant(observed, ctx.bounds, ctx.checks.invariants);
  if (inv) return inv;
  if (ctx.checks.slotRules) {
    const breaches = d.takeSlotBreaches();
    if (breaches.length > 0) return { check: 'T3_SlotBreach', message: breaches.map((x) => `${x.script} ${x.what}`).join('; ') };
  }
  if (ctx.checks.conformance) {
    if (mismatch) return { check: 'Conformance', message: mismatch };
    const [o, p] = [canonicalKey(observed), canonicalKey(predicted)];
    if (o !== p) return { check: 'Conformance', message: `real keyspace ${o}\n  model predicts ${p}` };
  }
  if (ctx.checks.readSide) return checkReadSide(d, observed);
  return null;
}
