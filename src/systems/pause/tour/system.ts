/**
 * The pause snapshot on the seam's tour (src/seam/tour/): the model side (model.ts) and the real
 * side by replay — a fresh instance (instance.ts) starts in Init and the engine walks paths of
 * attempts on it, because a replica's real state (its subscription, the messages it holds, its
 * armed timers, a SetPaused held before EXEC) is reached only by really running it there.
 */
import { openedInstance } from '../../../seam/tour/entry-kit.js';
import type { TourSystem } from '../../../seam/tour/system.js';
import { boundsLabel } from '../../../seam/system.js';
import type { PauseBounds } from '../model-state.js';
import type { PausePatch } from '../patch.js';
import { PauseInstance } from './instance.js';
import { pauseTourModel, type PauseAttempt, type PauseDecision, type PauseTourState } from './model.js';
import { observedLine, ttlFailure, type PauseObservation } from './observed.js';
import type { PauseTourRig } from './rig.js';

export type PauseTourSystem = TourSystem<PauseTourState, PauseAttempt, PauseDecision, PauseInstance, PauseObservation>;

export function pauseTourSystem(opts: { rig: PauseTourRig; bounds: PauseBounds; patch?: PausePatch; baseVersion?: number }): PauseTourSystem {
  const { rig, bounds } = opts;
  const timing = { bounds, ...(opts.patch ? { patch: opts.patch } : {}), ...(opts.baseVersion !== undefined ? { baseVersion: opts.baseVersion } : {}) };
  return {
    name: 'pause',
    bounds,
    boundsLabel: `${boundsLabel(bounds)}${opts.baseVersion !== undefined ? `, versions from ${opts.baseVersion}` : ''}`,
    model: pauseTourModel(bounds),
    real: {
      reach: {
        kind: 'replay',
        fresh: () => openedInstance(new PauseInstance(rig, timing)),
      },
      attempt: (i, a) => i.perform(a),
      read: (i) => i.read(),
      async dispose(i) {
        const finding = await i.close();
        if (finding !== null) rig.closeFindings.push(`${finding} (after ${i.log.join(' · ') || 'no attempt'})`);
      },
    },
    checks: {
      // After every attempt: the pause keys never expire (the observation read them back with their PTTLs).
      step: (_from, _a, step) => ttlFailure(step.observation),
      // Once per state: the hot read sends nothing and keeps its answer; what each replica answered goes to the observed digest.
      state: async (_s, i) => {
        const f = i.hotReadFinding();
        return f === null ? { answers: i.answers() } : { check: 'HotRead', message: f };
      },
    },
    // Every reply, the keyspace as stored (raw values, TTL classes) and every replica's answers.
    observed: (step) => `${step.note}|${observedLine(step.observation)}`,
    words: { stateCheck: 'hot read (1000 reads per replica: no command sent, the answer unchanged)' },
  };
}
