/**
 * A path cover of the model graph, for systems whose real state is reached by replay: a list of
 * runs, each a path from the initial state that one fresh instance walks, such that every
 * (state, attempt) of the shard's states is checked on exactly one run. Deterministic (the BFS
 * order and the attempts' order decide everything).
 *
 * An attempt the model says leaves the state as it is (refused, unchanged) costs no replay: all of
 * a state's such attempts, and its state check, are made on the first run that comes to the state,
 * before it moves on. Each run starts with the BFS-tree path to the first edge no run covers yet,
 * takes it, then keeps taking the first uncovered moving edge of the state it arrives in, until
 * there is none. Edges walked again on the way (the tree path to a later edge) are transit: still
 * compared with the model, not counted twice.
 */
import type { ModelGraph } from './model-graph.js';
import { inShard, type Shard } from './shard.js';

export type RunItem =
  /** Attempt number `attempt` of state `state`; `checked` when this run is the one that covers it. */
  | { readonly kind: 'attempt'; readonly state: number; readonly attempt: number; readonly checked: boolean }
  /** The state check of `state`, on the run's instance. */
  | { readonly kind: 'state'; readonly state: number };

export interface CoverRun {
  readonly items: readonly RunItem[];
}

export function pathCover(g: ModelGraph<unknown, unknown>, shard: Shard, stateChecks: boolean): CoverRun[] {
  const n = g.states.length;
  const mine = g.keys.map((k) => inShard(k, shard));
  const covered = g.edges.map((es) => new Uint8Array(es.length));
  const visited = new Uint8Array(n);
  // Per state: the first attempt index that may still be an uncovered moving edge.
  const cursor = new Int32Array(n);
  const runs: CoverRun[] = [];

  const moving = (i: number, j: number) => g.edges[i]![j]!.next !== i;
  const nextUncovered = (i: number): number => {
    if (!mine[i]) return -1;
    const es = g.edges[i]!;
    let j = cursor[i]!;
    while (j < es.length && (covered[i]![j] || !moving(i, j))) j++;
    cursor[i] = j;
    return j < es.length ? j : -1;
  };

  const build = (target: number, first: number | null): CoverRun => {
    const items: RunItem[] = [];
    const arrive = (i: number) => {
      if (!mine[i] || visited[i]) return;
      visited[i] = 1;
      if (stateChecks) items.push({ kind: 'state', state: i });
      g.edges[i]!.forEach((_, j) => {
        if (!moving(i, j)) {
          covered[i]![j] = 1;
          items.push({ kind: 'attempt', state: i, attempt: j, checked: true });
        }
      });
    };
    const take = (i: number, j: number) => {
      const checked = mine[i]! && !covered[i]![j];
      if (checked) covered[i]![j] = 1;
      items.push({ kind: 'attempt', state: i, attempt: j, checked });
      return g.edges[i]![j]!.next;
    };
    // The BFS-tree path to the target state.
    const tree: [number, number][] = [];
    for (let x = target; g.parent[x]! >= 0; x = g.parent[x]!) tree.push([g.parent[x]!, g.parentAttempt[x]!]);
    let cur = tree.length > 0 ? tree[tree.length - 1]![0] : target;
    arrive(cur);
    for (let k = tree.length - 1; k >= 0; k--) {
      cur = take(tree[k]![0], tree[k]![1]);
      arrive(cur);
    }
    if (first !== null) {
      cur = take(cur, first);
      arrive(cur);
      for (let j = nextUncovered(cur); j >= 0; j = nextUncovered(cur)) {
        cur = take(cur, j);
        arrive(cur);
      }
    }
    return { items };
  };

  for (let i = 0; i < n; i++) {
    for (let j = nextUncovered(i); j >= 0; j = nextUncovered(i)) runs.push(build(i, j));
  }
  // States of the shard no run came to (every edge into them is another shard's): a run to each.
  for (let i = 0; i < n; i++) if (mine[i] && !visited[i]) runs.push(build(i, null));
  return runs;
}
