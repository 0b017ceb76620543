/**
 * The exhaustive tour of a system's real code (the system supplies a TourSystem, system.ts).
 *
 * Conformance mode: for every state of the model graph (of the shard) in breadth-first order and
 * every attempt in it, a fresh instance of the real code is put into that state, the attempt runs,
 * and what it did and the real state read back must be the model's prediction; every invariant
 * holds in every real state, and the system's step and state checks pass. The real graph is then
 * the model's, which the digests show.
 *
 * Invariant mode (implementation mutants): the real graph is followed breadth-first wherever it
 * leads (a mutated gate reaches states the model never does), one invariant (and the system's type
 * invariant) checked in every real state; the tour stops at the first state that breaks it, whose
 * BFS path is the shortest counterexample. A complete run's digest says whether the graph is the
 * unpatched one's (an equivalent mutant).
 *
 * A state is reached by injection (a fresh instance per (state, attempt)) or by replay (runs of a
 * path cover, cover.ts, in conformance mode; a replay of the BFS path per state and after every
 * attempt that moved it, in invariant mode). Many jobs are in flight; results are judged in a fixed
 * order (ordered.ts), so the verdict, the figures and the first failure are the same on every run.
 */
import { pathCover, type CoverRun } from './cover.js';
import { blockHash, DigestSum, edgeLine } from './digest.js';
import { createHash } from 'node:crypto';
import { actionOfInstance, modelDigest, modelGraph, modelTotals, rowOf, type ModelGraph } from './model-graph.js';
import { runOrdered, type JobSource } from './ordered.js';
import { EVERY_INVARIANT, type ActionCoverage, type PathStep, type TourCheckMode, type TourFailure, type TourResult } from './result.js';
import { inShard, WHOLE, type Shard } from './shard.js';
import { isCheckFailure, TourObservationError, type DecisionView, type RealStep, type StateCheckResult, type TourCheckFailure, type TourSystem } from './system.js';

export interface TourOptions {
  readonly checks: TourCheckMode;
  /** Conformance mode only: run this shard's states (default: all). */
  readonly shard?: Shard;
  /** Jobs in flight at once (default 128). */
  readonly concurrency?: number;
  /** Invariant mode: the unpatched code's graph digest; the result says whether this graph is it. */
  readonly baseline?: string;
  /** After every attempt judged: attempts judged, the model's attempts in the shard, states executed. */
  readonly onProgress?: (attempts: number, total: number, states: number) => void;
}

export const DEFAULT_CONCURRENCY = 128;

/** A tour that cannot be run as asked (a shard in invariant mode, an unknown invariant, replay with two initial states). */
export class TourSetupError extends Error {
  override readonly name = 'TourSetupError';
}

interface Node<S, A, D> {
  readonly state: S;
  readonly key: string;
  readonly depth: number;
  /** Its index in the model graph, -1 when the model never reaches it. */
  readonly model: number;
  /** The real edge that first reached it (null for an initial state, or, in a shard, a state reached only by another shard). */
  parent: { readonly node: Node<S, A, D>; readonly attempt: A; readonly decision: D; readonly note?: string } | null;
  reached: boolean;
  started: boolean;
  attempts: readonly A[] | null;
  /** Edge lines by attempt index, and attempts not judged yet: the state's digest block. */
  lines: string[] | null;
  pending: number;
  instances: Set<string> | null;
}

type StepResult<S, D, O> = RealStep<S, D, O> | TourObservationError;

interface Work<R> {
  readonly results: R;
  readonly instances: number;
  readonly executed: number;
}

export async function runTour<S, A, D, I, O>(system: TourSystem<S, A, D, I, O>, options: TourOptions): Promise<TourResult<S, A, D>> {
  return new Tour(system, options).run();
}

class Tour<S, A, D, I, O> {
  private readonly t0 = performance.now();
  private readonly model: TourSystem<S, A, D, I, O>['model'];
  private readonly g: ModelGraph<S, D>;
  private readonly shard: Shard;
  private readonly conformance: boolean;
  private readonly watched: readonly string[];
  /** Invariant mode: the step checks' findings that fail the tour (the one named, or all beside every invariant). */
  private readonly stepWatched: readonly string[] = [];
  private readonly width: number;
  private readonly totalAttempts: number;

  private attempts = 0;
  private transitions = 0;
  private refused = 0;
  private unchanged = 0;
  private errors = 0;
  private stateChecks = 0;
  private instances = 0;
  private executed = 0;
  private statesStarted = 0;
  private coveredStates = 0;
  private coveredTransitions = 0;
  private coveredRefused = 0;
  private maxDepth = -1;
  private readonly byAction: Record<string, ActionCoverage> = {};
  private readonly digest = new DigestSum();
  private readonly observed = new DigestSum();
  private failure: TourFailure<S, A, D> | null = null;
  /** Conformance: one node per model state (by index). Invariant mode: the real states in discovery order. */
  private readonly nodes: Node<S, A, D>[] = [];
  private readonly byKey = new Map<string, Node<S, A, D>>();

  constructor(
    private readonly sys: TourSystem<S, A, D, I, O>,
    private readonly opts: TourOptions,
  ) {
    this.model = sys.model;
    this.g = modelGraph(sys.model);
    this.shard = opts.shard ?? WHOLE;
    this.conformance = opts.checks.kind === 'conformance';
    this.width = Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY);
    if (opts.checks.kind === 'invariant') {
      if (this.shard.count > 1) throw new TourSetupError('a shard applies to the conformance tour only (an invariant alone follows the real graph, which only the whole run knows)');
      const inv = opts.checks.invariant;
      const stepNames = sys.checks?.step ? (sys.checks.stepNames ?? []) : [];
      this.stepWatched = stepNames.includes(inv) ? [inv] : inv === EVERY_INVARIANT ? stepNames : [];
      const names = [...(sys.model.typeInvariant ? [sys.model.typeInvariant] : []), ...(stepNames.includes(inv) ? [] : [inv])];
      for (const n of names) if (!(n in sys.model.invariants)) throw new TourSetupError(`${sys.name} has no invariant ${n} (${[...Object.keys(sys.model.invariants), ...stepNames].join(', ')})`);
      this.watched = [...new Set(names)];
    } else this.watched = Object.keys(sys.model.invariants);
    if (sys.real.reach.kind === 'replay' && sys.model.initialStates().length !== 1)
      throw new TourSetupError(`${sys.name}: a replayed tour starts from one initial state, the model has ${sys.model.initialStates().length}`);
    this.totalAttempts = this.initRows();
  }

  /** The model's rows over the shard's states; returns the shard's attempts. */
  private initRows(): number {
    let total = 0;
    for (let i = 0; i < this.g.states.length; i++) {
      if (!inShard(this.g.keys[i]!, this.shard)) continue;
      for (const t of this.g.transitions[i]!) this.row(actionOfInstance(t)).modelTransitions += 1;
      for (const e of this.g.edges[i]!) {
        total += 1;
        if (e.view.kind === 'refused') this.row(rowOf(e.view)).modelRefused += 1;
      }
    }
    return total;
  }

  private row(name: string): ActionCoverage {
    return (this.byAction[name] ??= { modelTransitions: 0, transitions: 0, modelRefused: 0, refused: 0 });
  }

  async run(): Promise<TourResult<S, A, D>> {
    this.roots();
    if (this.failure === null) {
      const reach = this.sys.real.reach.kind;
      if (this.conformance && reach === 'inject') await this.conformInjected();
      else if (this.conformance) await this.conformReplayed();
      else if (reach === 'inject') await this.followInjected();
      else await this.followReplayed();
    }
    return this.result();
  }

  // ---- nodes and paths ----

  private roots(): Node<S, A, D>[] {
    const node = (state: S, key: string, depth: number, model: number): Node<S, A, D> => ({
      state,
      key,
      depth,
      model,
      parent: null,
      reached: false,
      started: false,
      attempts: null,
      lines: null,
      pending: 0,
      instances: null,
    });
    let roots: Node<S, A, D>[];
    if (this.conformance) {
      for (let i = 0; i < this.g.states.length; i++) this.nodes.push(node(this.g.states[i]!, this.g.keys[i]!, this.g.depth[i]!, i));
      roots = this.nodes.filter((_, i) => this.g.parent[i]! < 0);
    } else {
      const initial = this.sys.real.reach.kind === 'replay' ? this.model.initialStates().slice(0, 1) : this.model.initialStates();
      roots = [];
      for (const s of initial) {
        const k = this.model.key(s);
        if (this.byKey.has(k)) continue;
        const n = node(s, k, 0, this.g.index.get(k) ?? -1);
        this.nodes.push(n);
        this.byKey.set(k, n);
        roots.push(n);
      }
    }
    for (const r of roots) {
      r.reached = true;
      const f = this.brokenIn(r.state);
      if (f && this.failure === null) this.failure = { ...f, path: [{ attempt: null, decision: null, state: r.state }] };
    }
    return roots;
  }

  private attemptsOf(n: Node<S, A, D>): readonly A[] {
    if (n.attempts) return n.attempts;
    const attempts = this.model.attempts(n.state);
    // A state without attempts would have no edge to judge and no digest block: the alphabet must list its refusals.
    if (attempts.length === 0) throw new TourSetupError(`${this.sys.name}: the state ${n.key} has no attempts`);
    return (n.attempts = attempts);
  }

  /** The path to a node: its real parent edges, and the model's BFS tree where a shard saw none. */
  private pathTo(n: Node<S, A, D>): PathStep<S, A, D>[] {
    const out: PathStep<S, A, D>[] = [];
    for (let x: Node<S, A, D> | null = n; x; ) {
      if (x.parent) {
        out.push({ attempt: x.parent.attempt, decision: x.parent.decision, state: x.state, ...(x.parent.note !== undefined ? { note: x.parent.note } : {}) });
        x = x.parent.node;
      } else if (x.model >= 0 && this.g.parent[x.model]! >= 0 && this.conformance) {
        const p: number = this.g.parent[x.model]!;
        const j: number = this.g.parentAttempt[x.model]!;
        const from: Node<S, A, D> = this.nodes[p]!;
        out.push({ attempt: this.attemptsOf(from)[j]!, decision: this.g.edges[p]![j]!.decision, state: x.state });
        x = from;
      } else {
        out.push({ attempt: null, decision: null, state: x.state });
        x = null;
      }
    }
    return out.reverse();
  }

  private brokenIn(s: S): TourCheckFailure | null {
    const broken = this.watched.filter((name) => !this.model.invariants[name]!(s));
    return broken.length > 0 ? { check: broken[0]!, message: `${broken.join(', ')} violated in the real state` } : null;
  }

  private fail(f: TourFailure<S, A, D>): false {
    this.failure = f;
    return false;
  }

  // ---- judging (always in the fixed order) ----

  private start(n: Node<S, A, D>): void {
    if (n.started) return;
    n.started = true;
    this.statesStarted += 1;
    if (n.model >= 0) this.coveredStates += 1;
    if (n.depth > this.maxDepth) this.maxDepth = n.depth;
    const count = this.attemptsOf(n).length;
    n.lines = new Array<string>(count);
    n.pending = count;
    n.instances = new Set();
  }

  private finish(n: Node<S, A, D>): void {
    this.digest.add(blockHash(n.lines!));
    n.lines = null;
    n.instances = null;
    n.attempts = null;
  }

  private count(v: DecisionView): void {
    if (v.kind === 'transition') this.transitions += 1;
    else if (v.kind === 'unchanged') this.unchanged += 1;
    else if (v.kind === 'error') this.errors += 1;
    else this.refused += 1;
  }

  private coverRefused(v: DecisionView): void {
    this.coveredRefused += 1;
    this.row(rowOf(v)).refused += 1;
  }

  private sawTransition(n: Node<S, A, D>, instance: string): void {
    if (n.instances!.has(instance)) return;
    n.instances!.add(instance);
    if (n.model >= 0 && this.g.transitions[n.model]!.has(instance)) {
      this.coveredTransitions += 1;
      this.row(actionOfInstance(instance)).transitions += 1;
    }
  }

  private commitStateCheck(n: Node<S, A, D>, r: StateCheckResult, path: () => PathStep<S, A, D>[]): boolean {
    this.start(n);
    this.stateChecks += 1;
    if (isCheckFailure(r)) return this.fail({ ...r, path: path() });
    this.observe(`${n.key}|state|${r?.answers ?? ''}`);
    return true;
  }

  /** One term of the observed digest (a sum: the order of the terms does not matter). */
  private observe(line: string): void {
    this.observed.add(createHash('sha256').update(line).digest());
  }

  /**
   * Judges attempt j of node n. `checked`: this execution counts (a replay's transit steps are only
   * compared with the model). `path`: the path to n the failure would name.
   */
  private commitAttempt(n: Node<S, A, D>, j: number, r: StepResult<S, D, O>, checked: boolean, path: () => PathStep<S, A, D>[]): boolean {
    const a = this.attemptsOf(n)[j]!;
    const label = this.model.attemptLabel(a);
    if (checked) {
      this.start(n);
      this.attempts += 1;
    }
    if (r instanceof TourObservationError) return this.fail({ check: 'Observation', message: r.message, attempt: label, path: path() });
    const view = this.model.view(a, r.decision);
    const key = this.model.key(r.state);
    // Built only for a finding (a hundred thousand judged attempts should not allocate them).
    const step = (): PathStep<S, A, D> => ({ attempt: a, decision: r.decision, state: r.state, note: r.note });
    const got = () => `${view.label} → ${key}`;
    const predicted = n.model >= 0 ? this.g.edges[n.model]![j] : undefined;
    if (checked) {
      this.count(view);
      n.lines![j] = edgeLine(n.key, label, view.label, key);
      this.observe(`${edgeLine(n.key, label, view.label, key)}|${this.sys.observed ? this.sys.observed(r) : r.note}`);
      if (view.kind === 'transition' && view.instance !== undefined) this.sawTransition(n, view.instance);
    }
    if (this.conformance) {
      const predictedKey = predicted ? this.g.keys[predicted.next]! : undefined;
      if (!predicted || predicted.view.label !== view.label || predictedKey !== key) {
        return this.fail({
          check: 'Conformance',
          message: `${label}: the real system did ${view.label} (${r.note}), the model predicts ${predicted ? predicted.view.label : 'nothing'}`,
          attempt: label,
          real: got(),
          predicted: predicted ? `${predicted.view.label} → ${predictedKey}` : 'nothing: the model never reaches this state',
          path: [...path(), step()],
        });
      }
      if (checked) {
        if (predicted.view.kind === 'refused') this.coverRefused(view);
        const f = this.sys.checks?.step?.(n.state, a, r);
        if (f) return this.fail({ ...f, attempt: label, real: got(), path: [...path(), step()] });
      }
    } else {
      if (checked && predicted?.view.kind === 'refused' && view.kind === 'refused') this.coverRefused(view);
      if (checked && this.stepWatched.length > 0) {
        const f = this.sys.checks?.step?.(n.state, a, r);
        if (f && this.stepWatched.includes(f.check)) return this.fail({ ...f, attempt: label, real: got(), path: [...path(), step()] });
      }
    }

    // The successor: a state reached for the first time is checked against the invariants.
    let child: Node<S, A, D> | undefined;
    let first = false;
    if (this.conformance) {
      child = this.nodes[predicted!.next]!;
      // The path to a state is the model's BFS tree (so paths never loop, also in a shard), with what the real code replied.
      if (child.parent === null && this.g.parent[child.model] === n.model && this.g.parentAttempt[child.model] === j) child.parent = { node: n, attempt: a, decision: r.decision, note: r.note };
      if (!child.reached) {
        child.reached = true;
        first = true;
      }
    } else {
      child = this.byKey.get(key);
      if (!child) {
        child = {
          state: r.state,
          key,
          depth: n.depth + 1,
          model: this.g.index.get(key) ?? -1,
          parent: { node: n, attempt: a, decision: r.decision, note: r.note },
          reached: true,
          started: false,
          attempts: null,
          lines: null,
          pending: 0,
          instances: null,
        };
        this.nodes.push(child);
        this.byKey.set(key, child);
        first = true;
      }
    }
    if (first) {
      const f = this.brokenIn(r.state);
      if (f) return this.fail({ ...f, attempt: label, path: [...path(), step()] });
    }
    if (checked) {
      n.pending -= 1;
      if (n.pending === 0) this.finish(n);
      this.opts.onProgress?.(this.attempts, this.totalAttempts, this.statesStarted);
    }
    return true;
  }

  // ---- the real side ----

  private async injected(n: Node<S, A, D>, a: A): Promise<StepResult<S, D, O>> {
    const real = this.sys.real;
    if (real.reach.kind !== 'inject') throw new Error('not an injected tour');
    const inst = await real.reach.inject(n.state, a);
    try {
      return await this.step(inst, a);
    } finally {
      await real.dispose?.(inst);
    }
  }

  private async step(inst: I, a: A): Promise<StepResult<S, D, O>> {
    const out = await this.sys.real.attempt(inst, a);
    try {
      const back = await this.sys.real.read(inst);
      return { decision: out.decision, note: out.note, state: back.state, observation: back.observation };
    } catch (err) {
      if (err instanceof TourObservationError) return err;
      throw err;
    }
  }

  private async stateCheckInjected(n: Node<S, A, D>): Promise<StateCheckResult> {
    const real = this.sys.real;
    if (real.reach.kind !== 'inject') throw new Error('not an injected tour');
    const inst = await real.reach.inject(n.state, null);
    try {
      return await this.sys.checks!.state!(n.state, inst);
    } finally {
      await real.dispose?.(inst);
    }
  }

  private async fresh(): Promise<I> {
    const reach = this.sys.real.reach;
    if (reach.kind !== 'replay') throw new Error('not a replayed tour');
    return reach.fresh();
  }

  // ---- conformance, injected: the model's states, a fresh instance per (state, attempt) ----

  private async conformInjected(): Promise<void> {
    type Job = { readonly node: Node<S, A, D>; readonly attempt: number };
    const STATE = -1;
    const withStateCheck = this.sys.checks?.state !== undefined;
    const order = this.nodes.filter((n) => inShard(n.key, this.shard));
    let ni = 0;
    let aj = withStateCheck ? STATE : 0;
    const source: JobSource<Job> = {
      next: () => {
        while (ni < order.length) {
          const node = order[ni]!;
          if (aj < this.attemptsOf(node).length) return { node, attempt: aj++ };
          ni += 1;
          aj = withStateCheck ? STATE : 0;
        }
        return undefined;
      },
    };
    await runOrdered<Job, Work<StepResult<S, D, O> | StateCheckResult>>(
      source,
      this.width,
      async ({ node, attempt }) => {
        if (attempt === STATE) return { results: await this.stateCheckInjected(node), instances: 1, executed: 0 };
        return { results: await this.injected(node, this.attemptsOf(node)[attempt]!), instances: 1, executed: 1 };
      },
      ({ node, attempt }, w) => {
        this.instances += w.instances;
        this.executed += w.executed;
        const path = () => this.pathTo(node);
        if (attempt === STATE) return this.commitStateCheck(node, w.results as StateCheckResult, path);
        return this.commitAttempt(node, attempt, w.results as StepResult<S, D, O>, true, path);
      },
    );
  }

  // ---- conformance, replayed: the runs of a path cover ----

  private async conformReplayed(): Promise<void> {
    const runs = pathCover(this.g, this.shard, this.sys.checks?.state !== undefined);
    let next = 0;
    type Item = StepResult<S, D, O> | StateCheckResult;
    await runOrdered<CoverRun, Work<Item[]>>(
      { next: () => runs[next++] },
      this.width,
      async (run) => {
        const results: Item[] = [];
        const inst = await this.fresh();
        try {
          for (const item of run.items) {
            const node = this.nodes[item.state]!;
            if (item.kind === 'state') {
              results.push(await this.sys.checks!.state!(node.state, inst));
              continue;
            }
            const r = await this.step(inst, this.attemptsOf(node)[item.attempt]!);
            results.push(r);
            // Off the model's path the instance is somewhere else: the run ends (the judge reports it).
            const e = this.g.edges[item.state]![item.attempt]!;
            if (r instanceof TourObservationError || this.model.key(r.state) !== this.g.keys[e.next] || this.model.view(this.attemptsOf(node)[item.attempt]!, r.decision).label !== e.view.label) break;
          }
        } finally {
          await this.sys.real.dispose?.(inst);
        }
        return { results, instances: 1, executed: results.length };
      },
      (run, w) => {
        this.instances += w.instances;
        this.executed += w.executed;
        // Every run starts in the initial state.
        const walked: PathStep<S, A, D>[] = [{ attempt: null, decision: null, state: this.g.states[run.items[0]!.state]! }];
        const path = () => walked.slice();
        for (const [k, item] of run.items.entries()) {
          if (k >= w.results.length) throw new Error('a replayed run ended without a finding');
          const node = this.nodes[item.state]!;
          const r = w.results[k]!;
          if (item.kind === 'state') {
            if (!this.commitStateCheck(node, r as StateCheckResult, path)) return false;
            continue;
          }
          if (!this.commitAttempt(node, item.attempt, r as StepResult<S, D, O>, item.checked, path)) return false;
          const s = r as RealStep<S, D, O>;
          walked.push({ attempt: this.attemptsOf(node)[item.attempt]!, decision: s.decision, state: s.state, note: s.note });
        }
        return true;
      },
    );
  }

  // ---- invariant mode, injected: the real graph breadth-first ----

  private async followInjected(): Promise<void> {
    type Job = { readonly node: Node<S, A, D>; readonly attempt: number };
    let ni = 0;
    let aj = 0;
    const source: JobSource<Job> = {
      next: () => {
        while (ni < this.nodes.length) {
          const node = this.nodes[ni]!;
          if (aj < this.attemptsOf(node).length) return { node, attempt: aj++ };
          ni += 1;
          aj = 0;
        }
        return undefined;
      },
    };
    await runOrdered<Job, StepResult<S, D, O>>(
      source,
      this.width,
      ({ node, attempt }) => this.injected(node, this.attemptsOf(node)[attempt]!),
      ({ node, attempt }, r) => {
        this.instances += 1;
        this.executed += 1;
        return this.commitAttempt(node, attempt, r, true, () => this.pathTo(node));
      },
    );
  }

  // ---- invariant mode, replayed: each real state reached by replaying its BFS path ----

  private async followReplayed(): Promise<void> {
    let ni = 0;
    type NodeWork = { readonly replay: string | null; readonly steps: (StepResult<S, D, O> | undefined)[] };
    await runOrdered<Node<S, A, D>, Work<NodeWork>>(
      { next: () => (ni < this.nodes.length ? this.nodes[ni++] : undefined) },
      this.width,
      (node) => this.replayNode(node),
      (node, w) => {
        this.instances += w.instances;
        this.executed += w.executed;
        const path = () => this.pathTo(node);
        if (w.results.replay !== null) return this.fail({ check: 'Replay', message: w.results.replay, path: path() });
        for (let j = 0; j < w.results.steps.length; j++) if (!this.commitAttempt(node, j, w.results.steps[j]!, true, path)) return false;
        return true;
      },
    );
  }

  /**
   * Every attempt of a node on replayed instances: the attempts the model says leave the state as
   * it is first (they share an instance), then each other one on a fresh replay of the node's path.
   * An attempt that really moved the instance retires it.
   */
  private async replayNode(node: Node<S, A, D>): Promise<Work<{ replay: string | null; steps: (StepResult<S, D, O> | undefined)[] }>> {
    const attempts = this.attemptsOf(node);
    const path: A[] = [];
    for (let x = node; x.parent; x = x.parent.node) path.push(x.parent.attempt);
    path.reverse();
    const stays = (j: number) => node.model >= 0 && this.g.edges[node.model]![j]!.next === node.model;
    const order = [...attempts.keys()].sort((x, y) => Number(stays(y)) - Number(stays(x)) || x - y);
    const steps = new Array<StepResult<S, D, O> | undefined>(attempts.length);
    let instances = 0;
    let executed = 0;
    let inst: I | null = null;
    try {
      for (const j of order) {
        if (inst === null) {
          inst = await this.fresh();
          instances += 1;
          // Read back after every replayed attempt, as the tour does: a real side may follow its
          // state step by step (pause's history of Valkey versions sees one commit per read).
          const readBack = (i: I) => this.sys.real.read(i).catch((err: unknown) => (err instanceof TourObservationError ? err : Promise.reject(err)));
          let back: Awaited<ReturnType<typeof readBack>> | null = null;
          for (const a of path) {
            await this.sys.real.attempt(inst, a);
            executed += 1;
            back = await readBack(inst);
            if (back instanceof TourObservationError) break;
          }
          if (back === null) back = await readBack(inst);
          const where = back instanceof TourObservationError ? back.message : this.model.key(back.state);
          if (where !== node.key) {
            return {
              results: {
                replay: `replaying the path from the initial state (${path.length} attempts) did not reach the state: read back ${where}, want ${node.key} (the real code is not deterministic, or keeps state it does not read back)`,
                steps,
              },
              instances,
              executed,
            };
          }
        }
        const r = await this.step(inst, attempts[j]!);
        executed += 1;
        steps[j] = r;
        if (r instanceof TourObservationError || this.model.key(r.state) !== node.key) {
          const used: I = inst;
          inst = null;
          await this.sys.real.dispose?.(used);
        }
      }
    } finally {
      if (inst !== null) await this.sys.real.dispose?.(inst);
    }
    return { results: { replay: null, steps }, instances, executed };
  }

  // ---- the result ----

  private result(): TourResult<S, A, D> {
    const complete = this.failure === null;
    const digest = complete ? this.digest.hex() : null;
    const partDigest = modelDigest(this.g, this.shard);
    const { byAction: _rows, ...wholeTotals } = modelTotals(this.g, WHOLE);
    void _rows;
    return {
      system: this.sys.name,
      bounds: this.sys.bounds,
      boundsLabel: this.sys.boundsLabel,
      words: this.sys.words ?? {},
      checks: this.opts.checks,
      reach: this.sys.real.reach.kind,
      shard: this.shard,
      states: this.conformance ? this.statesStarted : this.nodes.length,
      attempts: this.attempts,
      transitions: this.transitions,
      refused: this.refused,
      unchanged: this.unchanged,
      errors: this.errors,
      stateChecks: this.stateChecks,
      instances: this.instances,
      executed: this.executed,
      model: modelTotals(this.g, this.shard),
      whole: { totals: wholeTotals, digest: modelDigest(this.g, WHOLE) },
      covered: { states: this.coveredStates, transitions: this.coveredTransitions, refused: this.coveredRefused },
      byAction: this.byAction,
      failure: this.failure,
      equalToModel: digest === null ? null : digest === partDigest,
      equalToBaseline: digest === null || this.opts.baseline === undefined ? null : digest === this.opts.baseline,
      digest,
      observed: complete ? this.observed.hex() : null,
      modelDigest: partDigest,
      depth: this.maxDepth + 1,
      durationMs: performance.now() - this.t0,
    };
  }
}
