/**
 * The init limiter's tour as the registry offers it (src/seam/tour/entry.ts): the model's bounds
 * checked against what the tour maps, a mutant's impl patch loaded, the engine's tour (replayed runs
 * of a path cover in conformance mode, the real graph breadth-first for one invariant), the
 * counterexample saved as a trace of the spec's variables.
 */
import { projectRoot } from '../../../core/project-root.js';
import { TourUnavailableError, type SystemTour, type SystemTourOptions, type SystemTourRun } from '../../../seam/tour/entry.js';
import { asSystemTourRun, engineOptions, invariantToCheck, mutantPatch, namedResult, systemFor, tourBounds, traceFileName, userPatch } from '../../../seam/tour/entry-kit.js';
import { addDigests } from '../../../seam/tour/digest.js';
import { modelGraphYielding } from '../../../seam/tour/model-graph.js';
import type { TourResult } from '../../../seam/tour/result.js';
import { runTour } from '../../../seam/tour/tour.js';
import { actionOfLabel, saveTrace, traceOfStates } from '../../../seam/trace.js';
import { INIT_LIMITER_INVARIANT_NAMES, initLimiterEventLabel } from '../../../../models/init-limiter/index.js';
import { INIT_LIMITER_BASE_BOUNDS, type InitLimiterBounds, type InitLimiterModelState } from '../model-state.js';
import { loadInitLimiterPatch, PatchError, validatePatch, type InitLimiterPatch } from '../server/index.js';
import { INIT_LIMITER_PARAM_NAMES, initLimiterBounds, initLimiterConstants, initLimiterSystem } from '../system.js';
import { initLimiterTourModel, type InitLimiterAttempt, type InitLimiterDecision } from './model.js';
import { initLimiterTourSystem } from './system.js';
import { RECEIVED_CHECKS } from './instance.js';

/** What `--invariant` may name: the spec's invariants and the checks on what the clients received. */
const TOUR_CHECK_NAMES: readonly string[] = [...INIT_LIMITER_INVARIANT_NAMES, ...RECEIVED_CHECKS];

/** What the init limiter's patch files default-export, for messages. */
export const INIT_LIMITER_PATCH_TYPE = "an InitLimiterPatch ({ system: 'init-limiter', parts, description? })";

/** Whether `x` is an init-limiter patch (how `--patch FILE` finds its system). */
export function isInitLimiterPatch(x: unknown): x is InitLimiterPatch {
  try {
    validatePatch(x);
    return true;
  } catch (err) {
    if (err instanceof PatchError) return false;
    throw err;
  }
}

export type InitLimiterTourResult = TourResult<InitLimiterModelState, InitLimiterAttempt, InitLimiterDecision>;

/**
 * The tour's default bound (`conform --system init-limiter` with no --const): two streams, one poll,
 * two slots, no queue, two store versions, one-chunk deliveries — 391 states, 2,481 labelled
 * transitions, 12,121 attempts, about a minute on two shared cores. The tour maps one-chunk
 * deliveries and no queue only (a Tick delivers or cuts a whole basis beyond the kernel's buffers);
 * the spec's base config (2 chunks, a waiter, four clients) is TLC's and the twin's.
 */
export const INIT_LIMITER_DEFAULT_CONSTANTS: Readonly<Record<string, string>> = { Streams: '2', Polls: '1', MaxConcurrent: '2', MaxQueued: '0', Chunks: '1', PollChunks: '1' };

/**
 * verify's bound: the default one without the poll — 147 states, 629 transitions, about 13 s — two
 * streams serializing or peeking at once (I3, I4). The minute of the default bound would be most of
 * verify's budget on two cores; the polls are the drive's checks' there (keep-alive, up-to-date).
 */
export const INIT_LIMITER_GATE_CONSTANTS: Readonly<Record<string, string>> = { ...INIT_LIMITER_DEFAULT_CONSTANTS, Polls: '0' };

/** Why the tour cannot map these bounds (null: it can). */
export function unmappable(b: InitLimiterBounds): string | null {
  const why: string[] = [];
  if (b.chunks !== 1 || b.pollChunks !== 1) why.push(`Chunks = PollChunks = 1 (a Tick delivers or cuts a whole basis), got Chunks = ${b.chunks}, PollChunks = ${b.pollChunks}`);
  if (b.maxQueued > 1) why.push(`MaxQueued ≤ 1 (one waiter held at the queue's admission), got ${b.maxQueued}`);
  if (b.streams.length > 2 || b.polls.length > 2) why.push('at most 2 streams and 2 polls');
  // An ungated poll (the limiter disabled) answers at once: no read-out and no hold point to map Poll to.
  if (!b.limiterOn && b.polls.length > 0) why.push(`no polls with the limiter disabled (LimiterOn = FALSE), got Polls = ${b.polls.length}`);
  return why.length > 0
    ? `the init-limiter tour maps ${why.join('; ')} — run conform with no --const (its default bound), --gate, or --const ${Object.entries(INIT_LIMITER_DEFAULT_CONSTANTS)
        .map(([k, v]) => `${k}=${v}`)
        .join(' --const ')}`
    : null;
}

/**
 * The waiter's bound, toured after a queue-less one that held (verify's and the default): two streams,
 * one slot, one waiter, s1 an FDv1 client (/all) beside s2 an FDv2 one — 128 states, 511 transitions —
 * so a slot freed with a client queued, a waiter that disconnects, the queue's counters and both
 * formats' feeds under the limiter are judged on every run, not only when asked for.
 */
export const INIT_LIMITER_WAITER_CONSTANTS: Readonly<Record<string, string>> = { ...INIT_LIMITER_GATE_CONSTANTS, MaxConcurrent: '1', MaxQueued: '1', FDv1: '1' };

/**
 * The limiter-off bound, toured after the waiter's: the default deployment (no limiter configured,
 * the base replay), s1 FDv1 beside s2 FDv2 — 122 states, 505 transitions — where no slot is taken,
 * no deadline armed, and every feed, stalled or not, is never cut and stays whole (Inv_OffPassThrough,
 * ClientDataSet).
 */
export const INIT_LIMITER_OFF_CONSTANTS: Readonly<Record<string, string>> = { ...INIT_LIMITER_GATE_CONSTANTS, LimiterOn: 'FALSE', FDv1: '1' };

/** The bounds a queue-less tour that held is followed by, in order, with the words a finding there is named by. */
const FOLLOW_UPS: ReadonlyArray<readonly [constants: Readonly<Record<string, string>>, what: string]> = [
  [INIT_LIMITER_WAITER_CONSTANTS, "the waiter's bound"],
  [INIT_LIMITER_OFF_CONSTANTS, 'the limiter-off bound'],
];

/** The bounds a tour was given (the model system's, after --const), checked. */
export function initLimiterTourBounds(b: unknown): InitLimiterBounds {
  return tourBounds(b, INIT_LIMITER_BASE_BOUNDS, initLimiterBounds);
}

/** Concurrent instances by default: each is a server with a basis of megabytes, on a shared 2-core machine. */
const DEFAULT_CONCURRENCY = 2;

export async function runInitLimiterTour(opts: SystemTourOptions): Promise<{ result: InitLimiterTourResult; tracePath?: string; replay?: string }> {
  const bounds = initLimiterTourBounds(opts.bounds);
  const why = unmappable(bounds);
  // Not run rather than bad input: `conform` with no --const tours every system at its base config.
  if (why !== null) throw new TourUnavailableError(why);
  // A user's patch (`--patch FILE`) or a mutant's; a user's gets the whole tour unless an invariant is named.
  const patch: InitLimiterPatch | undefined =
    (await userPatch(opts.patch, isInitLimiterPatch, INIT_LIMITER_PATCH_TYPE)) ?? (await mutantPatch(opts.mutant, (file) => loadInitLimiterPatch(file, projectRoot)));
  const invariant = invariantToCheck('init-limiter', TOUR_CHECK_NAMES, opts);
  await modelGraphYielding(initLimiterTourModel(bounds));
  const system = initLimiterTourSystem({ bounds, ...(patch ? { patch } : {}) });
  const first: InitLimiterTourResult = namedResult(system.model, await runTour(systemFor(system, invariant), engineOptions(opts, invariant, DEFAULT_CONCURRENCY)));
  let result = first;
  let traced = bounds;
  // A queue-less tour of the limiter with FDv2 streams that held is followed by the waiter's bound and
  // the limiter-off one, when those are no larger (two streams: verify's and the default; a shard is
  // one part of one tour). A manifest mutant keeps the one bound its expected kill is measured on.
  const followed = first.shard.count === 1 && bounds.maxQueued === 0 && bounds.limiterOn && bounds.fdv1.length === 0 && bounds.streams.length >= 2 && opts.mutant === undefined;
  for (const [constants, what] of followed ? FOLLOW_UPS : []) {
    if (result.failure !== null) break;
    const next = initLimiterConstants(INIT_LIMITER_BASE_BOUNDS, constants);
    await modelGraphYielding(initLimiterTourModel(next));
    const nextSystem = initLimiterTourSystem({ bounds: next, ...(patch ? { patch } : {}) });
    const more = namedResult(nextSystem.model, await runTour(systemFor(nextSystem, invariant), engineOptions(opts, invariant, DEFAULT_CONCURRENCY)));
    // What a follow-up tour observed is part of what this tour observed (a patch equivalent at one bound only is not equivalent).
    if (more.failure === null) result = { ...result, observed: result.observed !== null && more.observed !== null ? addDigests([result.observed, more.observed]) : null };
    else {
      result = {
        ...first,
        failure: { ...more.failure, message: `at ${what} (${more.boundsLabel}): ${more.failure.message}` },
        digest: null,
        equalToModel: null,
        equalToBaseline: null,
        observed: null,
      };
      traced = next;
    }
  }
  if (!result.failure || opts.saveTrace === false) return { result };
  const sys = initLimiterSystem(traced);
  const steps = result.failure.path.map((p) => {
    if (p.attempt === null || p.decision === null) return { action: 'Init', params: {}, state: p.state };
    const { action, params } = actionOfLabel(initLimiterEventLabel(p.attempt), INIT_LIMITER_PARAM_NAMES);
    return { action, params, state: p.state, observed: { decision: p.decision.kind }, ...(p.note ? { note: p.note } : {}) };
  });
  const trace = {
    ...traceOfStates(sys, steps, { source: 'conform', ...(opts.mutant ? { mutant: opts.mutant.id } : {}), violated: result.failure.check }),
    ...(opts.patch ? { patch: opts.patch } : {}),
  };
  const tracePath = saveTrace(trace, traceFileName(`conform-init-limiter-${opts.mutant ? `${opts.mutant.id}-` : opts.patch ? 'patch-' : ''}`, result, result.failure.check));
  return { result, tracePath, replay: `fencecheck trace replay ${tracePath}` };
}

export const initLimiterTour: SystemTour = {
  what: 'the reference server over real HTTP and real sockets (replayed paths, hold points, the manual clock)',
  invariants: TOUR_CHECK_NAMES,
  gateConstants: INIT_LIMITER_GATE_CONSTANTS,
  defaultConstants: INIT_LIMITER_DEFAULT_CONSTANTS,
  patchType: INIT_LIMITER_PATCH_TYPE,
  isPatch: isInitLimiterPatch,
  async run(opts): Promise<SystemTourRun> {
    return asSystemTourRun(initLimiterTourModel(initLimiterTourBounds(opts.bounds)), await runInitLimiterTour(opts));
  },
};
