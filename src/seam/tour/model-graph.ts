/**
 * The model's side of a tour, computed without the real system: breadth-first over the model's
 * states with the system's attempts, the prediction of every attempt (decision and successor, by
 * index), the model's labelled transitions per state, the BFS tree (the shortest path to every
 * state), and the per-state digests that make the graph's digest (digest.ts). Built once per model
 * object and kept (several tours in one process share it).
 */
import { endingSignal } from '../../core/process-end.js';
import { blockHash, DigestSum, edgeLine } from './digest.js';
import { inShard, type Shard } from './shard.js';
import type { DecisionView, TourModel } from './system.js';

export interface ModelEdge<D> {
  readonly decision: D;
  readonly view: DecisionView;
  /** The successor's index in ModelGraph.states. */
  readonly next: number;
}

/** Per row: labelled transitions (transitions), and predicted attempts by kind. */
export interface ModelRow {
  transitions: number;
  refused: number;
  unchanged: number;
}

export interface ModelTotals {
  readonly states: number;
  /** Labelled transitions: distinct (state, action instance) pairs, TLC's edges. */
  readonly transitions: number;
  readonly refused: number;
  readonly unchanged: number;
  readonly attempts: number;
  /**
   * Per action (transition attempts) and per attempt row (refusals, unchanged): predictions of
   * each kind. The labelled transitions per action are ActionCoverage.modelTransitions.
   */
  readonly byAction: Readonly<Record<string, ModelRow>>;
}

export interface ModelGraph<S, D> {
  /** Reachable states in breadth-first order (the initial states first). */
  readonly states: readonly S[];
  readonly keys: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  readonly depth: readonly number[];
  /** The BFS tree: the state and attempt index each state was first reached by (-1 for an initial state). */
  readonly parent: readonly number[];
  readonly parentAttempt: readonly number[];
  /** Per state, per attempt (in the state's attempt order): the prediction. */
  readonly edges: readonly (readonly ModelEdge<D>[])[];
  /** Per state: its labelled transitions (action instances). */
  readonly transitions: readonly ReadonlySet<string>[];
  /** Per state: the SHA-256 of its block of edge lines. */
  readonly blocks: readonly Buffer[];
  readonly durationMs: number;
}

/** The action of an instance, `AcquireB(p1)` → `AcquireB`: TLA+ action instances read `Name(args)`. */
export function actionOfInstance(instance: string): string {
  const i = instance.indexOf('(');
  return i < 0 ? instance : instance.slice(0, i);
}

/** The row a decision counts in. */
export function rowOf(v: DecisionView): string {
  return v.kind === 'transition' && v.instance !== undefined ? actionOfInstance(v.instance) : v.row;
}

const cache = new WeakMap<object, ModelGraph<unknown, unknown>>();

export function modelGraph<S, A, D>(model: TourModel<S, A, D>): ModelGraph<S, D> {
  const build = buildGraph(model);
  for (let r = build.next(); ; r = build.next()) if (r.done) return r.value;
}

/** How long the graph is built between two turns of the event loop (modelGraphYielding). */
const SLICE_MS = 25;

/**
 * modelGraph, built in slices of SLICE_MS with a turn of the event loop between them, so that a
 * signal is handled within a slice, not after seconds of graph (after a first topology the end
 * handlers are installed: a second system's graph, computed synchronously, held a signal 2–20 s
 * under load). Once a signal is ending the process it stops computing: nothing will use the graph.
 */
export async function modelGraphYielding<S, A, D>(model: TourModel<S, A, D>): Promise<ModelGraph<S, D>> {
  const build = buildGraph(model);
  let sliceEnd = performance.now() + SLICE_MS;
  for (let r = build.next(); ; r = build.next()) {
    if (r.done) return r.value;
    if (performance.now() < sliceEnd) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (endingSignal() !== undefined) await new Promise<never>(() => {});
    sliceEnd = performance.now() + SLICE_MS;
  }
}

/** The breadth-first build; yields after each state, so a caller may pause between states. */
function* buildGraph<S, A, D>(model: TourModel<S, A, D>): Generator<void, ModelGraph<S, D>> {
  const hit = cache.get(model);
  if (hit) return hit as ModelGraph<S, D>;
  const t0 = performance.now();
  const states: S[] = [];
  const keys: string[] = [];
  const index = new Map<string, number>();
  const depth: number[] = [];
  const parent: number[] = [];
  const parentAttempt: number[] = [];
  const add = (s: S, k: string, d: number, from: number, via: number) => {
    index.set(k, states.length);
    states.push(s);
    keys.push(k);
    depth.push(d);
    parent.push(from);
    parentAttempt.push(via);
  };
  for (const s of model.initialStates()) {
    const k = model.key(s);
    if (!index.has(k)) add(s, k, 0, -1, -1);
  }
  const edges: ModelEdge<D>[][] = [];
  const transitions: Set<string>[] = [];
  const blocks: Buffer[] = [];
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!;
    const k = keys[i]!;
    const out: ModelEdge<D>[] = [];
    const lines: string[] = [];
    const labels = new Set<string>();
    const predicted = new Set<string>();
    for (const a of model.attempts(s)) {
      const label = model.attemptLabel(a);
      if (labels.has(label)) throw new Error(`the tour's alphabet lists attempt ${label} twice in state ${k}`);
      labels.add(label);
      const p = model.predict(s, a);
      const view = model.view(a, p.decision);
      const nk = model.key(p.next);
      let next = index.get(nk);
      if (next === undefined) {
        next = states.length;
        add(p.next, nk, depth[i]! + 1, i, out.length);
      }
      if (view.kind === 'transition' && view.instance !== undefined) predicted.add(view.instance);
      out.push({ decision: p.decision, view, next });
      lines.push(edgeLine(k, label, view.label, nk));
    }
    if (out.length === 0) throw new Error(`the tour's alphabet lists no attempt in state ${k} (a state must list at least its refused attempts)`);
    edges.push(out);
    transitions.push(model.enabledInstances ? new Set(model.enabledInstances(s)) : predicted);
    blocks.push(blockHash(lines));
    yield;
  }
  const graph: ModelGraph<S, D> = { states, keys, index, depth, parent, parentAttempt, edges, transitions, blocks, durationMs: performance.now() - t0 };
  cache.set(model, graph as ModelGraph<unknown, unknown>);
  return graph;
}

/** The model's figures over the states of a shard (the whole graph for 1/1). */
export function modelTotals(g: ModelGraph<unknown, unknown>, shard: Shard): ModelTotals {
  let states = 0;
  let transitions = 0;
  let refused = 0;
  let unchanged = 0;
  let attempts = 0;
  const byAction: Record<string, ModelRow> = {};
  const row = (name: string) => (byAction[name] ??= { transitions: 0, refused: 0, unchanged: 0 });
  for (let i = 0; i < g.states.length; i++) {
    if (!inShard(g.keys[i]!, shard)) continue;
    states += 1;
    transitions += g.transitions[i]!.size;
    for (const e of g.edges[i]!) {
      attempts += 1;
      const r = row(rowOf(e.view));
      if (e.view.kind === 'transition') r.transitions += 1;
      else if (e.view.kind === 'unchanged') {
        unchanged += 1;
        r.unchanged += 1;
      } else {
        refused += 1;
        r.refused += 1;
      }
    }
  }
  return { states, transitions, refused, unchanged, attempts, byAction };
}

/** The model graph's digest over the states of a shard. */
export function modelDigest(g: ModelGraph<unknown, unknown>, shard: Shard): string {
  const sum = new DigestSum();
  for (let i = 0; i < g.states.length; i++) if (inShard(g.keys[i]!, shard)) sum.add(g.blocks[i]!);
  return sum.hex();
}
