/**
 * What a property run's commands are: the intents of the real actors (pods, the rollout, the deploy
 * pipeline, the operator, time), independent of state. Each is mapped at run time onto the
 * FencingEvent the real system would perform (a pod runs its own version's script; the gate decides
 * phase and door steps), and the model predicts that event — refused attempts included.
 * Shrinking removes intents; every shorter sequence is still a valid run.
 */
import fc from 'fast-check';
import type { Pod } from '../../src/fencing/state.js';
import type { GateStep } from '../../src/gate/rules.js';

export type Intent =
  | { readonly kind: 'acquire' | 'renew' | 'release' | 'upgrade' | 'downgrade'; readonly p: Pod }
  | { readonly kind: 'expire'; readonly which: 'old' | 'new' }
  /** The deploy pipeline's next move: upgrade a lagging pod, else the next gate step that is allowed. */
  | { readonly kind: 'deploy' }
  | { readonly kind: 'gate'; readonly step: GateStep };

export function intentLabel(i: Intent): string {
  switch (i.kind) {
    case 'expire': return `expire(${i.which})`;
    case 'deploy': return 'deploy';
    case 'gate': return `gate(${i.step})`;
    default: return `${i.kind}(${i.p})`;
  }
}

/**
 * Weights bias runs towards the interleavings that matter (mixed fleets, drains, rollbacks, the door)
 * without knowing any mutant: progress is frequent, rollbacks rarer, and every attempt the model would
 * refuse (acquire while held, renew or release after loss) stays in the mix.
 */
export function intentArbitrary(pods: readonly Pod[], door: boolean): fc.Arbitrary<Intent> {
  const pod = fc.constantFrom(...pods);
  const podIntent = (kind: 'acquire' | 'renew' | 'release' | 'upgrade' | 'downgrade') => pod.map((p): Intent => ({ kind, p }));
  const gate = (step: GateStep): fc.Arbitrary<Intent> => fc.constant({ kind: 'gate', step });
  const options: fc.WeightedArbitrary<Intent>[] = [
    { weight: 6, arbitrary: podIntent('acquire') },
    { weight: 3, arbitrary: podIntent('renew') },
    { weight: 2, arbitrary: podIntent('release') },
    { weight: 2, arbitrary: fc.constantFrom<Intent>({ kind: 'expire', which: 'old' }, { kind: 'expire', which: 'new' }) },
    { weight: 3, arbitrary: podIntent('upgrade') },
    { weight: 2, arbitrary: podIntent('downgrade') },
    { weight: 6, arbitrary: fc.constant<Intent>({ kind: 'deploy' }) },
    { weight: 1, arbitrary: gate('AdvanceTarget') },
    { weight: 1, arbitrary: gate('Backfill') },
    { weight: 2, arbitrary: gate('RollbackPhase') },
    { weight: 2, arbitrary: gate('ReverseMerge') },
  ];
  if (door) {
    options.push(
      { weight: 1, arbitrary: gate('EnterCompatible') },
      { weight: 1, arbitrary: gate('RevertDisabled') },
      { weight: 1, arbitrary: gate('Enable') },
    );
  }
  return fc.oneof(...options);
}
