/**
 * A known population of simulated runtimes that heartbeat into the registry: honest ones (some die,
 * some restart later, some join late) and corrupt ones (undecodable records, forged attestation).
 * What each did, and when the harness heard each write acknowledged, is the ground truth the
 * discovery checker judges against.
 */
import { mulberry32 } from '../../../../core/random.js';
import type { ValkeyClient } from '../../../../valkey/index.js';
import { heartbeat } from './designs.js';
import { encodeRecord } from './record.js';

export type RuntimeKind = 'honest' | 'garbage' | 'forged';

export interface LifePlan {
  /** Offsets from the run's start, ms; `endMs` undefined: until the run ends. */
  readonly startMs: number;
  readonly endMs?: number;
}

export interface RuntimePlan {
  readonly id: string;
  readonly kind: RuntimeKind;
  readonly lives: readonly LifePlan[];
}

/** What happened to one life, in absolute ms (Date.now()). */
export interface LifeTruth {
  readonly boot: number;
  firstSentAt?: number;
  /** When the first heartbeat was acknowledged: from here the runtime is live. */
  liveAt?: number;
  /** Expiry score of the last heartbeat sent. */
  lastExpiry?: number;
  /** When it stopped heartbeating (it dies: no more writes). */
  diedAt?: number;
}

export interface RuntimeTruth {
  readonly id: string;
  readonly kind: RuntimeKind;
  readonly lives: LifeTruth[];
}

export interface PopulationTiming {
  readonly heartbeatMs: number;
  readonly ttlMs: number;
  readonly durationMs: number;
}

export interface PopulationShape {
  readonly honest: number;
  readonly garbage: number;
  readonly forged: number;
  /** Honest runtimes that die mid-run; `restarts` of them come back after their record expired. */
  readonly deaths: number;
  readonly restarts: number;
  readonly lateJoiners: number;
}

export const DEFAULT_SHAPE: PopulationShape = { honest: 30, garbage: 3, forged: 3, deaths: 6, restarts: 4, lateJoiners: 2 };

export function planPopulation(t: PopulationTiming, shape: PopulationShape = DEFAULT_SHAPE, seed = 12): RuntimePlan[] {
  // Seeded: the same population every run, so figures compare across runs.
  const rnd = mulberry32(seed);
  const h = t.heartbeatMs;
  const plans: RuntimePlan[] = [];
  for (let i = 0; i < shape.honest; i++) {
    const id = `rt-${String(i).padStart(2, '0')}`;
    const jitter = Math.floor(rnd() * h);
    if (i < shape.deaths) {
      const die = 2 * h + Math.floor(rnd() * 3 * h);
      const lives: LifePlan[] = [{ startMs: jitter, endMs: die }];
      if (i < shape.restarts) lives.push({ startMs: die + t.ttlMs + h });
      plans.push({ id, kind: 'honest', lives });
    } else if (i >= shape.honest - shape.lateJoiners) {
      plans.push({ id, kind: 'honest', lives: [{ startMs: 4 * h + jitter }] });
    } else plans.push({ id, kind: 'honest', lives: [{ startMs: jitter }] });
  }
  for (let i = 0; i < shape.garbage; i++) plans.push({ id: `rt-garbage-${i}`, kind: 'garbage', lives: [{ startMs: Math.floor(rnd() * h) }] });
  for (let i = 0; i < shape.forged; i++) plans.push({ id: `rt-forged-${i}`, kind: 'forged', lives: [{ startMs: Math.floor(rnd() * h) }] });
  return plans;
}

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

function valueOf(plan: RuntimePlan, boot: number, secret: string): string {
  const rec = { runtime: plan.id, addr: `10.0.${boot}.${plan.id.length}:7000`, boot };
  if (plan.kind === 'garbage') return `{"runtime":"${plan.id}",boot:${boot}`;
  if (plan.kind === 'forged') return encodeRecord(`not-${secret}`, rec);
  return encodeRecord(secret, rec);
}

export interface PopulationRun {
  readonly truth: readonly RuntimeTruth[];
  readonly startedAt: number;
  /** Resolves when every runtime stopped (the run's duration ended). */
  readonly done: Promise<void>;
  /** Heartbeat errors (the implementation under test met them). */
  readonly errors: string[];
}

export function runPopulation(client: ValkeyClient, plans: readonly RuntimePlan[], t: PopulationTiming, secret: string): PopulationRun {
  const startedAt = Date.now();
  const end = startedAt + t.durationMs;
  const errors: string[] = [];
  const truth: RuntimeTruth[] = plans.map((p) => ({ id: p.id, kind: p.kind, lives: [] }));
  const lifeLoop = async (plan: RuntimePlan, rt: RuntimeTruth, life: LifePlan, boot: number) => {
    await sleepUntil(startedAt + life.startMs);
    const stop = Math.min(end, life.endMs !== undefined ? startedAt + life.endMs : end);
    if (Date.now() >= stop) return;
    const lt: LifeTruth = { boot };
    rt.lives.push(lt);
    const value = valueOf(plan, boot, secret);
    for (let next = Date.now(); next < stop; next += t.heartbeatMs) {
      await sleepUntil(next);
      if (Date.now() >= stop) break;
      lt.firstSentAt ??= Date.now();
      try {
        lt.lastExpiry = await heartbeat(client, { runtime: plan.id, value, ttlMs: t.ttlMs });
        lt.liveAt ??= Date.now();
      } catch (err) {
        // The expiry was written or not: count the attempt as sent, with its expiry bound.
        lt.lastExpiry = Date.now() + t.ttlMs;
        errors.push(`${plan.id}: heartbeat: ${(err as Error).message}`);
      }
    }
    lt.diedAt = Date.now();
  };
  const done = Promise.all(
    plans.map(async (p, i) => {
      for (const [b, life] of p.lives.entries()) await lifeLoop(p, truth[i]!, life, b + 1);
    }),
  ).then(() => undefined);
  return { truth, startedAt, done, errors };
}
