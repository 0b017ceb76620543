/**
 * What share of the model a run's clients went through, per client: the phases of a client's
 * record (`cl[c].phase`) the model reaches at the spec's base config, and the phase changes of one
 * client along the model's edges (`off → peeking`, `sending → live`, ...), against those the server's
 * own read-out (/_control/clients, test seams only) showed for the run's clients, sampled. A
 * projection, not the state graph: the run's herd is no bound of the model, so its states are not
 * the model's; a sampled read-out also misses a phase shorter than a sample (a change seen across one
 * is counted as the change sampled).
 */
import { exploreSystem } from '../../../seam/explore.js';
import { initLimiterSystem } from '../system.js';
import { clientsOf, INIT_LIMITER_BASE_BOUNDS, type InitLimiterBounds, type Phase } from '../model-state.js';
import type { ClientsReadout, ServerPhase } from '../server/client-views.js';

export interface PhaseProjection {
  readonly phases: ReadonlySet<string>;
  readonly changes: ReadonlySet<string>;
}

/** The model's per-client phases and phase changes at `bounds` (breadth-first over the twin). */
export function modelPhaseProjection(bounds: InitLimiterBounds = INIT_LIMITER_BASE_BOUNDS): PhaseProjection {
  const sys = initLimiterSystem(bounds);
  const cs = clientsOf(bounds);
  const phases = new Set<string>();
  const changes = new Set<string>();
  // The seam's breadth-first search; a state's key orders clients by name, never permutes them,
  // so the state kept for a key has the same per-client phases as every state of that key.
  const x = exploreSystem(sys, { invariants: [], edges: true });
  for (const s of x.states) for (const c of cs) phases.add(s.cl[c]!.phase);
  for (const e of x.edges!) {
    const from = x.states[e.from]!;
    const to = x.states[e.to]!;
    for (const c of cs) if (to.cl[c]!.phase !== from.cl[c]!.phase) changes.add(`${from.cl[c]!.phase}→${to.cl[c]!.phase}`);
  }
  return { phases, changes };
}

/** The server's phase as the model's (a poll between requests, a closed stream: `off`). */
export function modelPhaseOf(p: ServerPhase): Phase {
  return p === 'idle' || p === 'closed' ? 'off' : p;
}

/** Per-client phases and changes seen in read-out samples (every client starts `off`). */
export class PhaseCollector {
  private readonly last = new Map<string, Phase>();
  readonly phases = new Set<string>(['off']);
  readonly changes = new Set<string>();

  add(r: ClientsReadout): void {
    for (const v of r.clients) {
      const now = modelPhaseOf(v.phase);
      const before = this.last.get(v.client) ?? 'off';
      this.phases.add(now);
      if (now !== before) this.changes.add(`${before}→${now}`);
      this.last.set(v.client, now);
    }
  }

  /** `phases 6/6, changes 11/17 (missing: …)` against the model's projection. */
  share(model: PhaseProjection): { phases: number; changes: number; line: string } {
    const ph = [...model.phases].filter((p) => this.phases.has(p));
    const ch = [...model.changes].filter((c) => this.changes.has(c));
    const missing = [...model.changes].filter((c) => !this.changes.has(c));
    const beyond = [...this.changes].filter((c) => !model.changes.has(c));
    return {
      phases: ph.length / model.phases.size,
      changes: ch.length / model.changes.size,
      line: `per-client phases ${ph.length}/${model.phases.size}, phase changes ${ch.length}/${model.changes.size} of the model's at its base config${missing.length ? ` (not seen: ${missing.join(', ')})` : ''}${beyond.length ? `; seen across a sample: ${beyond.join(', ')}` : ''}`,
    };
  }
}
