/**
 * The rehearsal's chaos, drawn from the seed so that a printed seed replays it, every kind in every
 * run: a `kill -9` mid-rollout (its ReplicaSet replaces the pod), the emergency rollback B → A
 * before or after the backfill, a pod that stops renewing (its sessions expire and are taken over
 * with a higher generation), a failed scrape (a pod's /metrics answers 500 or hangs for a while:
 * the gate must refuse and the rollout wait), and a Prometheus restart (stopped by PID, started
 * again on its port: the gate fails closed meanwhile), a pod that crash-loops (its old ReplicaSet
 * asks for it until it is back: rule 2(b)), and a pod that comes up on a stale image (its gauge
 * says the previous phase; the pipeline deletes it when the gate names it). Each event is named in
 * the figures.
 * The kill and the rollback draw from the rehearsal's stream; the later kinds from their own, so
 * the first two replay as they did before the others existed.
 */
import { delay } from '../../../valkey/wait.js';
import type { DeploymentController } from './controller.js';
import type { RehearsalFigures } from './figures.js';
import type { RehearsalObserver } from './observer.js';
import { tellPod } from './pod-process.js';

/** Gated asks in every run before C's (A, B, rollback, B, backfill; a first backfill on some seeds). */
const ASKS_BEFORE_C = 5;

export interface ChaosPlan {
  /** Which rollout (0: to A, 1: to B, 2: to C, 3: back to B after the rollback) suffers the kill -9. */
  readonly killIn: number;
  /** The emergency rollback B → A comes after the backfill (else before it). */
  readonly rollbackAfterBackfill: boolean;
  /** The rollout (0: to A, 1: to B, 2: the rollback to A, 3: to B again) after whose `stopRenewingAt`-th surge a pod stops renewing. */
  readonly stopRenewingIn: number;
  readonly stopRenewingAt: number;
  /** Before which gated ask (0: the first) a pod's /metrics fails, and how. */
  readonly failedScrapeBefore: number;
  readonly failedScrapeMode: '500' | 'hang';
  /** Before which gated ask Prometheus restarts (never the same as the failed scrape's). */
  readonly prometheusRestartBefore: number;
  /** The rollout (0: to A, 3: to B again) whose `staleAt`-th new pod comes up on the previous phase's image. */
  readonly staleIn: 0 | 3;
  readonly staleAt: number;
}

/** How long a crash-looping pod's ReplicaSet waits before starting it again (the kubelet's back-off), scaled. */
export function crashLoopBackoffMs(scrapeMs: number): number {
  return Math.max(4000, scrapeMs * 16);
}

export function planChaos(rand: () => number, chaosRand: () => number, pods: number): ChaosPlan {
  const killIn = Math.floor(rand() * 3);
  const rollbackAfterBackfill = rand() < 0.5;
  const failedScrapeBefore = Math.floor(chaosRand() * ASKS_BEFORE_C);
  return {
    killIn,
    rollbackAfterBackfill,
    stopRenewingIn: Math.floor(chaosRand() * 4),
    stopRenewingAt: Math.floor(chaosRand() * pods),
    failedScrapeBefore,
    failedScrapeMode: chaosRand() < 0.5 ? '500' : 'hang',
    prometheusRestartBefore: (failedScrapeBefore + 1 + Math.floor(chaosRand() * (ASKS_BEFORE_C - 1))) % ASKS_BEFORE_C,
    staleIn: chaosRand() < 0.5 ? 0 : 3,
    staleAt: Math.floor(chaosRand() * pods),
  };
}

export interface ChaosContext {
  readonly controller: DeploymentController;
  readonly rand: () => number;
  readonly chaosRand: () => number;
  readonly scrapeMs: number;
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

/** A running pod drawn from the seed stops renewing (and acquiring); it still serves its gauge. Its name. */
export async function stopRenewingOnePod(c: ChaosContext, rollingTo: string): Promise<string> {
  const victims = c.controller.running();
  const [rs, victim] = victims[Math.floor(c.chaosRand() * victims.length)]!;
  await tellPod(victim, '/stop-renewing');
  chaosEvent(c, `${victim.name} (phase ${rs.phase}) stops renewing mid-rollout to ${rollingTo}`);
  return victim.name;
}

/** What a failed scrape left for the checks: which pod, and when every scrape of it must have failed. */
export interface ScrapeFault {
  readonly pod: string;
  /** From here to `until`, Prometheus's last scrape of the pod failed (its first failing scrape is in). */
  readonly surelyFailingFrom: number;
  readonly until: number;
}

/** A running pod's /metrics answers 500, or hangs past the scrape timeout, for ten scrape periods. */
export async function failOneScrape(c: ChaosContext, mode: '500' | 'hang', before: string): Promise<ScrapeFault> {
  const victims = c.controller.running();
  const [, victim] = victims[Math.floor(c.chaosRand() * victims.length)]!;
  const ms = c.scrapeMs * 10;
  const at = Date.now();
  await tellPod(victim, '/metrics-fault', `${mode} ${ms}`);
  chaosEvent(c, `${victim.name}'s /metrics ${mode === '500' ? 'answers 500' : 'hangs'} for ${ms} ms before ${before}`);
  // One scrape period to the next scrape, one more for a hang's timeout, one for the rule's query to see it.
  return { pod: victim.name, surelyFailingFrom: at + c.scrapeMs * (mode === 'hang' ? 3 : 2) + 100, until: at + ms };
}

/** Stops Prometheus by PID and, after `downMs`, starts it again (`start`); resolves once it is back. */
export async function restartPrometheus(c: ChaosContext, stop: () => Promise<void>, start: () => Promise<void>, downMs: number, before: string): Promise<void> {
  await stop();
  chaosEvent(c, `Prometheus restarted (down ${downMs} ms) before ${before}`);
  await delay(downMs);
  await start();
}

/**
 * As the rollout to A begins, a pod of the fleet at O is killed and crash-loops: its ReplicaSet
 * asks for it through its back-off and starts it again (an O pod) after the new pods are up.
 */
export async function crashLoopOnePod(c: ChaosContext): Promise<void> {
  const victims = c.controller.running();
  const [rs, victim] = victims[Math.floor(c.chaosRand() * victims.length)]!;
  const backoff = crashLoopBackoffMs(c.scrapeMs);
  await c.controller.crashLoop(rs, victim, backoff);
  chaosEvent(c, `${victim.name} (phase ${rs.phase}) killed, crash-looping (back-off ${backoff} ms) as the rollout to A begins`);
}
