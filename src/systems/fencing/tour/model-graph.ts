/**
 * The model's side of the tour, computed without Valkey: breadth-first over the model's states with
 * the tour's alphabet, the prediction of every attempt, the model's own labelled transitions (every
 * enabled action instance, as TLC counts them), and a digest of the attempt graph, so that a real
 * graph can be called equal to it (an equivalent mutant) by comparing digests.
 */
import { createHash } from 'node:crypto';
import { enabledEvents, eventLabel } from '../../../../models/fencing/index.js';
import { canonicalKey, initialState, type FencingBounds, type FencingState } from '../state.js';
import { attemptLabel, attemptsIn, decisionLabel, predict, type Attempt, type Decision, type Prediction } from './attempts.js';

/** One line of a graph: from, attempt, decision, successor (canonical keys). */
export function edgeLine(from: string, a: Attempt, d: Decision, to: string): string {
  return `${from}|${attemptLabel(a)}|${decisionLabel(d)}|${to}`;
}

/** SHA-256 of the sorted edge lines. */
export function graphDigest(lines: readonly string[]): string {
  const h = createHash('sha256');
  for (const l of [...lines].sort()) h.update(`${l}\n`);
  return h.digest('hex');
}

/** Which figure an attempt's decision counts in: its action for a transition, `kind` otherwise. */
export function actionOf(a: Attempt, d: Decision): string {
  if (d.kind === 'transition') return d.event.type;
  return a.kind === 'gate' ? a.step : a.kind;
}

export interface Totals {
  readonly states: number;
  /** Labelled transitions: distinct (state, action instance) pairs, TLC's edges. */
  readonly transitions: number;
  readonly refused: number;
  readonly renewed: number;
  readonly attempts: number;
  /** Per action (transitions) and per attempt kind or gate step (refusals, renewals). */
  readonly byAction: Readonly<Record<string, { transitions: number; refused: number; renewed: number }>>;
}

export interface ModelTour {
  readonly bounds: FencingBounds;
  /** Reachable states in breadth-first order. */
  readonly states: readonly FencingState[];
  /** Their canonical keys. */
  readonly stateKeys: ReadonlySet<string>;
  /** The prediction of attempt `attemptLabel(a)` in the state of canonical key k: `${k}|${label}`. */
  readonly predictions: ReadonlyMap<string, Prediction>;
  /** The model's labelled transitions, `${fromKey}|${eventLabel}`. */
  readonly transitions: ReadonlySet<string>;
  readonly totals: Totals;
  readonly digest: string;
  readonly durationMs: number;
}

/** The action of a labelled transition `${fromKey}|AcquireB(p1)`: `AcquireB`. */
export function transitionAction(t: string): string {
  return t.slice(t.lastIndexOf('|') + 1).replace(/\(.*$/, '');
}

export function predictionKey(stateKey: string, a: Attempt): string {
  return `${stateKey}|${attemptLabel(a)}`;
}

/** Adds one attempt's decision to per-action figures. */
export function countDecision(by: Record<string, { transitions: number; refused: number; renewed: number }>, a: Attempt, d: Decision): void {
  const row = (by[actionOf(a, d)] ??= { transitions: 0, refused: 0, renewed: 0 });
  if (d.kind === 'transition') row.transitions += 1;
  else if (d.kind === 'renewed') row.renewed += 1;
  else row.refused += 1;
}

const cache = new Map<string, ModelTour>();

export function modelTour(bounds: FencingBounds): ModelTour {
  const id = `${bounds.pods.join(',')}|${bounds.maxGen}`;
  const hit = cache.get(id);
  if (hit) return hit;
  const t0 = performance.now();
  const init = initialState(bounds);
  const seen = new Map<string, FencingState>([[canonicalKey(init), init]]);
  const order: FencingState[] = [init];
  const predictions = new Map<string, Prediction>();
  const lines: string[] = [];
  const byAction: Record<string, { transitions: number; refused: number; renewed: number }> = {};
  let refused = 0;
  let renewed = 0;
  for (let i = 0; i < order.length; i++) {
    const s = order[i]!;
    const k = canonicalKey(s);
    for (const a of attemptsIn(s, bounds)) {
      const p = predict(s, a, bounds);
      predictions.set(predictionKey(k, a), p);
      countDecision(byAction, a, p.decision);
      if (p.decision.kind === 'refused') refused += 1;
      if (p.decision.kind === 'renewed') renewed += 1;
      const nk = canonicalKey(p.next);
      lines.push(edgeLine(k, a, p.decision, nk));
      if (!seen.has(nk)) {
        seen.set(nk, p.next);
        order.push(p.next);
      }
    }
  }
  const transitions = new Set<string>();
  for (const s of order) {
    const k = canonicalKey(s);
    for (const ev of enabledEvents(s, bounds)) transitions.add(`${k}|${eventLabel(ev)}`);
  }
  const result: ModelTour = {
    bounds,
    states: order,
    stateKeys: new Set(seen.keys()),
    predictions,
    transitions,
    totals: { states: order.length, transitions: transitions.size, refused, renewed, attempts: predictions.size, byAction },
    digest: graphDigest(lines),
    durationMs: performance.now() - t0,
  };
  cache.set(id, result);
  return result;
}
