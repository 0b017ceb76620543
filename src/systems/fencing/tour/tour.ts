/**
 * `fencecheck conform`: the real implementation's own state graph, explored breadth-first on real
 * Valkey. For each state of the frontier and each attempt in it (every enabled transition and every
 * attempt the model refuses), the real system is put into exactly that state, the attempt runs
 * through the real scripts, gate and door, and the keyspace read back is the successor. With
 * `conformance`, every step is compared with the model's prediction and the tour stops at the first
 * (state, attempt) where they part; the graph must equal the model's. With an `invariant` alone (the
 * impl mutant layer), the tour follows the real graph wherever it leads and stops at the first state
 * that breaks that invariant. Deterministic: a fixed breadth-first order, results taken in order.
 */
import { eventLabel } from '../../../../models/fencing/index.js';
import { brokenInvariants, INVARIANTS, type InvariantName } from '../invariants.js';
import type { ImplPatch } from '../patch.js';
import { loadFencingScripts } from '../scripts.js';
import { DEFAULT_LEASE_TTL_MS } from '../encoding.js';
import { canonicalKey, initialState, type FencingBounds, type FencingState } from '../state.js';
import { attemptLabel, attemptsIn, decisionLabel, type Attempt, type Decision } from './attempts.js';
import { readSideFailure, ttlFailure, type TourCheckFailure } from './checks.js';
import { executeAttempt, ObservationError, type ExecContext, type RealStep } from './execute.js';
import { actionOf, edgeLine, graphDigest, modelTour, predictionKey, transitionAction, type ModelTour } from './model-graph.js';
import type { TourWorld } from './world.js';

export type TourChecks = { readonly kind: 'conformance' } | { readonly kind: 'invariant'; readonly invariant: InvariantName };

export interface TourOptions {
  readonly world: TourWorld;
  readonly bounds: FencingBounds;
  readonly checks: TourChecks;
  readonly patch?: ImplPatch;
  /** Attempts in flight at once (sessions are independent keys). */
  readonly concurrency?: number;
  readonly log?: (line: string) => void;
  /** After every real attempt: attempts made, the model's attempts in all, states reached (a progress meter's input). */
  readonly onProgress?: (attempts: number, total: number, states: number) => void;
}

/** One edge of a path from Init: the attempt made in the previous state, what it did, where it led. */
export interface PathStep {
  readonly attempt: Attempt | null;
  readonly decision: Decision | null;
  readonly state: FencingState;
  readonly note?: string;
}

export interface TourFailure extends TourCheckFailure {
  /** The path from Init to the state in which the failing attempt was made (or that breaks the invariant). */
  readonly path: readonly PathStep[];
  /** The failing attempt, its real outcome, and the model's prediction (conformance). */
  readonly attempt?: string;
  readonly real?: string;
  readonly predicted?: string;
}

export interface ActionCoverage {
  /** The model's labelled transitions of this action, and how many the tour executed. */
  modelTransitions: number;
  transitions: number;
  /** Attempts of this kind (or gate step) the model refuses, and how many the tour executed. */
  modelRefused: number;
  refused: number;
}

export interface TourResult {
  readonly bounds: FencingBounds;
  readonly checks: TourChecks;
  /** Real states reached, real edges (attempts) executed. */
  readonly states: number;
  readonly attempts: number;
  readonly transitions: number;
  readonly refused: number;
  readonly renewed: number;
  readonly readSideChecks: number;
  /** The model's totals at these bounds. */
  readonly model: ModelTour['totals'];
  /** Executed against the model: states, labelled transitions and refused attempts covered. */
  readonly covered: { readonly states: number; readonly transitions: number; readonly refused: number };
  readonly byAction: Readonly<Record<string, ActionCoverage>>;
  readonly failure: TourFailure | null;
  /** Whether the real graph is the model's (every edge, every decision); null when the tour stopped early. */
  readonly equalToModel: boolean | null;
  readonly digest: string | null;
  readonly depth: number;
  readonly durationMs: number;
}

interface Node {
  readonly state: FencingState;
  readonly key: string;
  readonly parent: { readonly node: Node; readonly attempt: Attempt; readonly decision: Decision; readonly note: string } | null;
}

function pathTo(node: Node): PathStep[] {
  const out: PathStep[] = [];
  for (let n: Node | null = node; n; n = n.parent?.node ?? null) {
    out.push(n.parent ? { attempt: n.parent.attempt, decision: n.parent.decision, state: n.state, note: n.parent.note } : { attempt: null, decision: null, state: n.state });
  }
  return out.reverse();
}

/** Runs `work` over items with at most `width` in flight; results in input order. */
async function pool<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

const INJECTED_TTL_MS = DEFAULT_LEASE_TTL_MS / 2;

export async function runTour(opts: TourOptions): Promise<TourResult> {
  const t0 = performance.now();
  const { bounds, checks, world } = opts;
  const model = modelTour(bounds);
  const scripts = loadFencingScripts(opts.patch);
  const ctx: ExecContext = { world, scripts, ...(opts.patch ? { patch: opts.patch } : {}), bounds, leaseTtlMs: DEFAULT_LEASE_TTL_MS, injectedTtlMs: INJECTED_TTL_MS };
  const width = opts.concurrency ?? 128;
  const conformance = checks.kind === 'conformance';

  const init = initialState(bounds);
  const root: Node = { state: init, key: canonicalKey(init), parent: null };
  const nodes = new Map<string, Node>([[root.key, root]]);
  let frontier: Node[] = [root];
  const lines: string[] = [];
  const coveredTransitions = new Set<string>();
  const byAction: Record<string, ActionCoverage> = {};
  const row = (name: string) => (byAction[name] ??= { modelTransitions: 0, transitions: 0, modelRefused: 0, refused: 0 });
  for (const t of model.transitions) row(transitionAction(t)).modelTransitions += 1;
  for (const [name, r] of Object.entries(model.totals.byAction)) if (r.refused > 0) row(name).modelRefused += r.refused;
  let attempts = 0;
  let transitions = 0;
  let refused = 0;
  let renewed = 0;
  let coveredRefused = 0;
  let readSideChecks = 0;
  let failure: TourFailure | null = null;
  let depth = 0;
  let made = 0;

  const stateFailure = (s: FencingState): TourCheckFailure | null => {
    if (checks.kind === 'invariant') {
      for (const name of ['TypeOK', checks.invariant] as const) if (!INVARIANTS[name](s, bounds)) return { check: name, message: `${name} violated on the real keyspace` };
      return null;
    }
    const broken = brokenInvariants(s, bounds);
    return broken.length > 0 ? { check: broken[0]!, message: `${broken.join(', ')} violated on the real keyspace` } : null;
  };

  while (frontier.length > 0 && failure === null) {
    depth += 1;
    const work = frontier.flatMap((node) => attemptsIn(node.state, bounds).map((attempt) => ({ node, attempt })));
    opts.log?.(`depth ${depth}: ${frontier.length} states, ${work.length} attempts`);
    const results = await pool(work, width, async ({ node, attempt }): Promise<RealStep | ObservationError> => {
      try {
        const step = await executeAttempt(ctx, node.state, attempt);
        opts.onProgress?.(++made, model.predictions.size, nodes.size);
        return step;
      } catch (err) {
        if (err instanceof ObservationError) return err;
        throw err;
      }
    });
    const readSide = conformance ? await pool(frontier, width, (n) => readSideFailure(world, scripts, n.state, bounds, INJECTED_TTL_MS)) : [];
    readSideChecks += readSide.length;
    const next: Node[] = [];
    // An attempt's finding ends the path with that attempt and what the real system did.
    const fail = (node: Node, f: TourCheckFailure & Partial<TourFailure>, last?: PathStep) => (failure = { ...f, path: last ? [...pathTo(node), last] : pathTo(node) });
    // Read-side findings belong to the state itself: they come before its attempts' findings.
    for (const [i, f] of readSide.entries()) {
      if (f) {
        fail(frontier[i]!, f);
        break;
      }
    }
    for (const [i, r] of results.entries()) {
      if (failure) break;
      const { node, attempt } = work[i]!;
      attempts += 1;
      const label = attemptLabel(attempt);
      if (r instanceof ObservationError) {
        fail(node, { check: 'Observation', message: r.message, attempt: label });
        break;
      }
      const d = r.decision;
      if (d.kind === 'transition') {
        transitions += 1;
        coveredTransitions.add(`${node.key}|${eventLabel(d.event)}`);
      } else if (d.kind === 'renewed') renewed += 1;
      else refused += 1;
      const key = canonicalKey(r.state);
      lines.push(edgeLine(node.key, attempt, d, key));
      const predicted = model.predictions.get(predictionKey(node.key, attempt));
      const step: PathStep = { attempt, decision: d, state: r.state, note: r.note };
      if (conformance) {
        const want = predicted ? `${decisionLabel(predicted.decision)} → ${canonicalKey(predicted.next)}` : 'nothing: the model never reaches this state';
        const got = `${decisionLabel(d)} → ${key}`;
        if (!predicted || decisionLabel(predicted.decision) !== decisionLabel(d) || canonicalKey(predicted.next) !== key) {
          fail(node, { check: 'Conformance', message: `${label}: the real system did ${decisionLabel(d)} (${r.note}), the model predicts ${predicted ? decisionLabel(predicted.decision) : 'nothing'}`, attempt: label, real: got, predicted: want }, step);
          break;
        }
        if (predicted.decision.kind === 'refused') {
          coveredRefused += 1;
          row(actionOf(attempt, d)).refused += 1;
        }
        const f = ttlFailure(r, ctx.leaseTtlMs, INJECTED_TTL_MS) ?? (r.breaches.length > 0 ? { check: 'T3_SlotBreach', message: r.breaches.join('; ') } : null);
        if (f) {
          fail(node, { ...f, attempt: label, real: got }, step);
          break;
        }
      } else if (predicted?.decision.kind === 'refused' && d.kind === 'refused') {
        coveredRefused += 1;
        row(actionOf(attempt, d)).refused += 1;
      }
      let child = nodes.get(key);
      if (!child) {
        child = { state: r.state, key, parent: { node, attempt, decision: d, note: r.note } };
        nodes.set(key, child);
        next.push(child);
        const f = stateFailure(r.state);
        if (f) {
          fail(child, { ...f, attempt: label });
          break;
        }
      }
    }
    frontier = next;
  }
  for (const t of coveredTransitions) if (model.transitions.has(t)) row(transitionAction(t)).transitions += 1;
  const coveredStates = [...nodes.keys()].filter((k) => model.stateKeys.has(k)).length;
  const coveredTrans = [...coveredTransitions].filter((t) => model.transitions.has(t)).length;
  const complete = failure === null;
  const digest = complete ? graphDigest(lines) : null;
  return {
    bounds,
    checks,
    states: nodes.size,
    attempts,
    transitions,
    refused,
    renewed,
    readSideChecks,
    model: model.totals,
    covered: { states: coveredStates, transitions: coveredTrans, refused: coveredRefused },
    byAction,
    failure,
    equalToModel: complete ? digest === model.digest : null,
    digest,
    depth,
    durationMs: performance.now() - t0,
  };
}
