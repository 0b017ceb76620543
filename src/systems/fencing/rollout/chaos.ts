/**
 * The rehearsal's chaos, drawn from the seed so that a printed seed replays it: which rollout a
 * `kill -9` strikes and after which surge, which pod it kills, and whether the emergency rollback
 * comes before or after the backfill. Each event is named in the figures as it happens.
 */
import type { DeploymentController } from './controller.js';
import type { RehearsalFigures } from './figures.js';
import type { RehearsalObserver } from './observer.js';

export interface ChaosPlan {
  /** Which rollout (0: to A, 1: to B, 2: to C, 3: back to B after the rollback) suffers the kill -9. */
  readonly killIn: number;
  /** The emergency rollback B → A comes after the backfill (else before it). */
  readonly rollbackAfterBackfill: boolean;
}

export function planChaos(rand: () => number): ChaosPlan {
  const killIn = Math.floor(rand() * 3);
  const rollbackAfterBackfill = rand() < 0.5;
  return { killIn, rollbackAfterBackfill };
}

export interface ChaosContext {
  readonly controller: DeploymentController;
  readonly rand: () => number;
  readonly figures: RehearsalFigures;
  readonly observer: RehearsalObserver;
  readonly say: (line: string) => void;
}

/** Names a chaos event in the figures, the observer and the log. */
export function chaosEvent(c: ChaosContext, what: string): void {
  c.figures.chaos.push(what);
  c.observer.chaos?.({ at: Date.now(), what });
  c.say(`rollout: chaos: ${what}`);
}

/** `kill -9` of a running pod drawn from the seed; its ReplicaSet starts a replacement. */
export async function killOnePod(c: ChaosContext, rollingTo: string): Promise<void> {
  const victims = c.controller.running();
  const [rs, victim] = victims[Math.floor(c.rand() * victims.length)]!;
  await c.controller.killPod(rs, victim);
  chaosEvent(c, `kill -9 ${victim.name} (phase ${rs.phase}) mid-rollout to ${rollingTo}`);
  c.controller.publish();
  await c.controller.startPod(rs);
  c.controller.publish();
}
