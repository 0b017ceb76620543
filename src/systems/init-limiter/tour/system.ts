/**
 * The init limiter on the seam's tour (src/seam/tour/): the model side (model.ts) and the real side
 * by replay — a fresh reference server and fresh clients (instance.ts) per run of the path cover,
 * because the real state (a peek parked in flight, a slot held across a blocked write, a deadline on
 * a kept-alive connection, a client that stopped reading) is reached only by really running it there.
 */
import { openedInstance } from '../../../seam/tour/entry-kit.js';
import { boundsLabel } from '../../../seam/system.js';
import type { TourSystem } from '../../../seam/tour/system.js';
import type { InitLimiterPatch } from '../server/index.js';
import type { InitLimiterBounds, InitLimiterModelState } from '../model-state.js';
import { InitLimiterInstance, RECEIVED_CHECKS, type InitLimiterObservation } from './instance.js';
import { initLimiterTourModel, type InitLimiterAttempt, type InitLimiterDecision } from './model.js';

export type InitLimiterTourSystem = TourSystem<InitLimiterModelState, InitLimiterAttempt, InitLimiterDecision, InitLimiterInstance, InitLimiterObservation>;

export function initLimiterTourSystem(opts: { bounds: InitLimiterBounds; patch?: InitLimiterPatch }): InitLimiterTourSystem {
  const { bounds } = opts;
  return {
    name: 'init-limiter',
    bounds,
    boundsLabel: boundsLabel(bounds),
    model: initLimiterTourModel(bounds),
    real: {
      reach: {
        kind: 'replay',
        fresh: () => openedInstance(new InitLimiterInstance(bounds, opts.patch)),
      },
      attempt: (i, a) => i.perform(a),
      read: (i) => i.read(),
      dispose: (i) => i.close(),
    },
    // What the clients received and what the limiter counts, after every attempt: the model's state
    // keeps neither a client's data set nor the counters, so the read-back judges them against the store.
    // An invariant-mode tour may name one of them (`--invariant ClientDataSet`).
    checks: { step: (_from, _a, step) => step.observation.findings[0] ?? null, stepNames: RECEIVED_CHECKS },
    // Every reply, and what the clients received and /metrics counted with it (observed.ts).
    observed: (step) => `${step.note}|${step.observation.received}`,
  };
}
