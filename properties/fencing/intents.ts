/**
 * What a property run's commands are: the intents of the real actors (pods, the rollout, the deploy
 * pipeline, the operator, time), independent of state. Each is mapped at run time onto the
 * FencingEvent the real system would perform (a pod runs its own version's script; the gate decides
 * phase and door steps), and the model predicts that event — refused attempts included.
 * Shrinking removes intents; every shorter sequence is still a valid run.
 */
import fc from 'fast-check';
import type { Phase, Pod } from '../../src/systems/fencing/state.js';
import type { GateStep } from '../../src/systems/fencing/gate/rules.js';

export type Intent =
  | { readonly kind: 'acquire' | 'renew' | 'release' | 'upgrade' | 'downgrade'; readonly p: Pod }
  | { readonly kind: 'expire'; readonly which: 'old' | 'new' }
  /** The deploy pipeline's next move: the next gate step that is allowed, else roll a pod (preferably p). */
  | { readonly kind: 'deploy'; readonly p: Pod }
  | { readonly kind: 'gate'; readonly step: GateStep }
  /**
   * A whole deploy-pipeline intent: ship until the target is `to` and every pod runs it (rollout), or
   * the emergency rollback chain down to `to` with the pods downgrading (retreat). Each of its
   * steps is an ordinary deploy step the gate decides; it ends when done, stuck, or after a bound.
   * A canary rollout stops once the target is `to` and one pod runs it (a mixed fleet); a paused
   * one stops after `pauseAfter` steps (the pipeline interrupted half-way; the next one goes on).
   */
  | { readonly kind: 'rollout' | 'retreat'; readonly to: Phase; readonly p: Pod; readonly canary?: boolean; readonly pauseAfter?: number };

export type PipelineIntent = Extract<Intent, { kind: 'rollout' | 'retreat' }>;
/** An intent that is one step of the real system. */
export type StepIntent = Exclude<Intent, PipelineIntent>;

export function isPipelineIntent(i: Intent): i is PipelineIntent {
  return i.kind === 'rollout' || i.kind === 'retreat';
}

export function intentLabel(i: Intent): string {
  switch (i.kind) {
    case 'expire':
      return `expire(${i.which})`;
    case 'deploy':
      return `deploy(${i.p})`;
    case 'gate':
      return `gate(${i.step})`;
    case 'rollout':
    case 'retreat':
      return `${i.kind}${i.canary ? '-canary' : ''}(${i.to},${i.p}${i.pauseAfter !== undefined ? `,pause@${i.pauseAfter}` : ''})`;
    default:
      return `${i.kind}(${i.p})`;
  }
}

/** A run's mix of actors: steady progress, lease churn, an emergency-rollback storm, or a push to the door (door runs only). */
export const PROFILES = ['steady', 'churn', 'retreat', 'ship', 'doorbound'] as const;
export type Profile = (typeof PROFILES)[number];

type Weights = Readonly<Record<'acquire' | 'renew' | 'release' | 'expire' | 'upgrade' | 'downgrade' | 'deploy' | 'advance' | 'backfill' | 'rollback' | 'reverseMerge' | 'door', number>>;

// Integer weights (fast-check's oneof). The pipeline runs the reverse merge itself when the gate asks
// for it, so explicit operator merges are rare: a random early merge would hide the need for one.
const WEIGHTS: Readonly<Record<Profile, Weights>> = {
  steady: { acquire: 12, renew: 6, release: 4, expire: 4, upgrade: 6, downgrade: 4, deploy: 12, advance: 2, backfill: 2, rollback: 4, reverseMerge: 2, door: 2 },
  churn: { acquire: 16, renew: 8, release: 8, expire: 8, upgrade: 4, downgrade: 2, deploy: 12, advance: 2, backfill: 2, rollback: 2, reverseMerge: 1, door: 2 },
  retreat: { acquire: 6, renew: 1, release: 6, expire: 6, upgrade: 1, downgrade: 4, deploy: 16, advance: 1, backfill: 1, rollback: 6, reverseMerge: 0, door: 2 },
  ship: { acquire: 4, renew: 4, release: 3, expire: 2, upgrade: 2, downgrade: 1, deploy: 30, advance: 1, backfill: 1, rollback: 0, reverseMerge: 0, door: 0 },
  doorbound: { acquire: 8, renew: 6, release: 6, expire: 4, upgrade: 2, downgrade: 1, deploy: 30, advance: 1, backfill: 1, rollback: 0, reverseMerge: 0, door: 3 },
};

/**
 * Weights bias runs towards the interleavings that matter (mixed fleets, drains, rollbacks, the door)
 * without knowing any mutant: progress is frequent, rollbacks come in storms in some runs, and every
 * attempt the model would refuse (acquire while held, renew or release after loss) stays in the mix.
 */
export function intentArbitrary(pods: readonly Pod[], door: boolean, profile: Profile = 'steady'): fc.Arbitrary<Intent> {
  const w = WEIGHTS[profile];
  const pod = fc.constantFrom(...pods);
  const podIntent = (kind: 'acquire' | 'renew' | 'release' | 'upgrade' | 'downgrade') => pod.map((p): Intent => ({ kind, p }));
  const gate = (step: GateStep): fc.Arbitrary<Intent> => fc.constant({ kind: 'gate', step });
  const options: fc.WeightedArbitrary<Intent>[] = [
    { weight: w.acquire, arbitrary: podIntent('acquire') },
    { weight: w.renew, arbitrary: podIntent('renew') },
    { weight: w.release, arbitrary: podIntent('release') },
    { weight: w.expire, arbitrary: fc.constantFrom<Intent>({ kind: 'expire', which: 'old' }, { kind: 'expire', which: 'new' }) },
    { weight: w.upgrade, arbitrary: podIntent('upgrade') },
    { weight: w.downgrade, arbitrary: podIntent('downgrade') },
    { weight: w.deploy, arbitrary: pod.map((p): Intent => ({ kind: 'deploy', p })) },
    { weight: w.advance, arbitrary: gate('AdvanceTarget') },
    { weight: w.backfill, arbitrary: gate('Backfill') },
    { weight: w.rollback, arbitrary: gate('RollbackPhase') },
    { weight: w.reverseMerge, arbitrary: gate('ReverseMerge') },
  ];
  if (door) {
    options.push({ weight: w.door, arbitrary: gate('EnterCompatible') }, { weight: w.door, arbitrary: gate('RevertDisabled') }, { weight: w.door, arbitrary: gate('Enable') });
  }
  return fc.oneof(...options.filter((o) => o.weight > 0));
}

/**
 * A run's commands: one profile per run, so each run has a consistent character; campaigns of whole
 * pipeline intents (3 in 8 standalone runs, 1 in 7 door runs); runs that ship phases first and then meet an
 * emergency-rollback storm (rollbacks mostly come after a phase shipped); and, in door runs, long
 * pushes for the door (~16 pipeline steps away).
 */
export function runArbitrary(pods: readonly Pod[], door: boolean, maxCommands: number): fc.Arbitrary<Intent[]> {
  const run = (profile: Profile, max: number, min = 1) => fc.array(intentArbitrary(pods, door, profile), { minLength: Math.max(1, Math.min(min, max)), maxLength: Math.max(1, max), size: 'max' });
  const shipped = Math.ceil(maxCommands / 2);
  const shipThenRetreat = fc
    .tuple(run('ship', shipped, Math.ceil(maxCommands * 0.35)), run('retreat', maxCommands - shipped, Math.ceil(maxCommands / 4)))
    .map(([a, b]) => [...a, ...b].slice(0, maxCommands));
  return fc.oneof(
    // Fewer in door runs, which spend their budget reaching the door (campaigns stay in disabled mode).
    { weight: door ? 1 : 3, arbitrary: campaignArbitrary(pods, maxCommands) },
    { weight: 1, arbitrary: run('steady', maxCommands) },
    { weight: 1, arbitrary: run('churn', maxCommands) },
    { weight: 1, arbitrary: run('retreat', maxCommands) },
    { weight: 2, arbitrary: shipThenRetreat },
    ...(door ? [{ weight: 1, arbitrary: run('doorbound', maxCommands, Math.ceil((maxCommands * 2) / 3)) }] : []),
  );
}

/**
 * A campaign: episodes of one whole pipeline intent (rollout to A/B/C, or retreat to B/A/O) followed
 * by a short burst of lease activity on the phase it reached: a pod takes a lease and keeps it, takes
 * it and gives it back (a lease cycle), releases, renews, or a lease expires. The pod the pipeline
 * just rolled serves first more often. Uniform events rarely line up a full rollout, a lease taken
 * and lost on the new keyspace, a full rollback chain into O and a fresh acquisition there; as
 * episodes they are a handful of commands. Deeper targets are likelier (the rollback matrix is where
 * the chains are longest), and bursts are short because a run only has MaxGen generations to issue.
 * The same generator for every run, mutated or not.
 */
export function campaignArbitrary(pods: readonly Pod[], maxCommands: number): fc.Arbitrary<Intent[]> {
  const rollout = fc.tuple(fc.constantFrom<Phase>('A', 'B', 'B', 'C', 'C'), fc.boolean()).map(([to, canary]) => ({ kind: 'rollout' as const, to, ...(canary ? { canary } : {}) }));
  const retreat = fc.constantFrom<Phase>('O', 'O', 'A', 'A', 'B').map((to) => ({ kind: 'retreat' as const, to }));
  // One pipeline intent in three is interrupted half-way, so bursts also meet half-rolled fleets.
  const pause = fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) });
  const pipeline = fc.tuple(fc.oneof(rollout, retreat), pause).map(([i, pauseAfter]) => (pauseAfter === undefined ? i : { ...i, pauseAfter }));
  const episode = fc
    .tuple(pipeline, fc.constantFrom(...pods), fc.array(fc.tuple(fc.constantFrom(...BURST), fc.nat(pods.length)), { minLength: 0, maxLength: 4 }))
    .map(([pipe, p, burst]): Intent[] => [{ ...pipe, p }, ...burst.flatMap(([what, who]) => burstIntents(what, who === 0 ? p : pods[who - 1]!))]);
  const maxEpisodes = Math.max(1, Math.min(10, Math.floor(maxCommands / 2)));
  return fc.array(episode, { minLength: 1, maxLength: maxEpisodes, size: 'max' }).map((es) => es.flat().slice(0, Math.max(1, maxCommands)));
}

type Burst = 'hold' | 'cycle' | 'release' | 'renew' | 'expire-old' | 'expire-new';
// Repeats are weights: leases taken (and cycled) most, lost both ways.
const BURST: readonly Burst[] = ['hold', 'hold', 'cycle', 'cycle', 'release', 'renew', 'expire-old', 'expire-new'];

/** One burst element as plain intents: hold = acquire, cycle = acquire then release by the same pod. */
function burstIntents(what: Burst, p: Pod): Intent[] {
  switch (what) {
    case 'hold':
      return [{ kind: 'acquire', p }];
    case 'cycle':
      return [
        { kind: 'acquire', p },
        { kind: 'release', p },
      ];
    case 'release':
    case 'renew':
      return [{ kind: what, p }];
    case 'expire-old':
      return [{ kind: 'expire', which: 'old' }];
    case 'expire-new':
      return [{ kind: 'expire', which: 'new' }];
  }
}
