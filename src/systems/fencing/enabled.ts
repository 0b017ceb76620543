/**
 * Which events a snapshot of the machine admits — `snapshot.can(ev)`, answered without `can`'s
 * per-call cost. `can` walks the active state nodes (xstate's `transitionNode` / `StateNode.next`)
 * and looks each node's candidates up under a freshly built string key (`candidates-${type}`); at
 * Pods=6/MaxGen=6, `can` was half of a plain can-then-transition walk (5.7M calls, mostly that
 * lookup). Here the same walk is compiled once per state configuration and event type, over the
 * machine's own transition definitions (`StateNode.transitions`) and guard implementations
 * (`machine.implementations`, where a mutant's overrides are), each guard run as xstate's
 * `evaluateGuard` runs it (guardTest). Mirrors xstate 5.33 (package.json pins it);
 * test/fencing/model/bfs.test.ts compares the walk built on it with xstate/graph's on the base and every
 * mutant, and bfs.ts re-checks the first states with `can`.
 */
import { and, type AnyStateNode, type AnyTransitionDefinition, type StateValue } from 'xstate';
import { evaluateGuard } from 'xstate/guards';
import type { FencingEvent, FencingMachine, FencingSnapshot } from '../../../models/fencing/index.js';

/** No transition selected · selected but "forbidden" (no target, no actions) · selected and counts for `can`. */
type Selected = 0 | 1 | 2;
type Selector = (snap: FencingSnapshot, ev: FencingEvent) => Selected;

/** One event of the alphabet with the test of whether a snapshot (of one configuration) admits it. */
export interface PlanEntry {
  /** Index of the event in the alphabet given to `enabledPlans`. */
  readonly index: number;
  readonly event: FencingEvent;
  readonly enabled: (snap: FencingSnapshot) => boolean;
}

type Guard = NonNullable<AnyTransitionDefinition['guard']>;
type GuardTest = (snap: FencingSnapshot, ev: FencingEvent) => boolean;
type PlainGuard = (args: { context: unknown; event: unknown }, params: undefined) => boolean;

/** xstate's own `and` combinator check (every `and([...])` guard carries this very function). */
const AND_CHECK = (and([]) as unknown as { check: unknown }).check;

/**
 * `evaluateGuard(guard, …)`, with the two steps of xstate's dispatch that never change for a given
 * machine done once: a named guard's implementation looked up (a plain function is then called as
 * evaluateGuard calls it: fresh `{ context, event }`, no params), an `and` of them unrolled into
 * its parts (in order, stopping at the first false, as `every` does). Anything else — inline guards,
 * `or`, `not`, parameterised or missing names — goes to evaluateGuard itself.
 */
function guardTest(guard: Guard, implementations: Readonly<Record<string, unknown>>): GuardTest {
  if (typeof guard === 'string') {
    const impl = implementations[guard];
    if (typeof impl === 'function' && !('check' in impl)) {
      const f = impl as PlainGuard;
      return (snap, ev) => f({ context: snap.context, event: ev }, undefined);
    }
  } else if (typeof guard === 'function' && (guard as { check?: unknown }).check === AND_CHECK) {
    const parts = ((guard as unknown as { guards: readonly Guard[] }).guards ?? []).map((g) => guardTest(g, implementations));
    return (snap, ev) => {
      for (let i = 0; i < parts.length; i++) if (!parts[i]!(snap, ev)) return false;
      return true;
    };
  }
  return (snap, ev) => evaluateGuard(guard, snap.context, ev, snap);
}

/** `StateNode.next`: the first candidate whose guard passes. `null` when the node has no candidate at all. */
function nodeNext(node: AnyStateNode, type: string): Selector | null {
  const candidates: readonly AnyTransitionDefinition[] = node.transitions.get(type) ?? [];
  if (candidates.length === 0) return null;
  const counts = candidates.map((t): Selected => (t.target !== undefined || t.actions.length > 0 ? 2 : 1));
  const implementations = (node.machine.implementations.guards ?? {}) as Readonly<Record<string, unknown>>;
  const tests = candidates.map((t) => (t.guard === undefined ? null : guardTest(t.guard, implementations)));
  return (snap, ev) => {
    for (let i = 0; i < candidates.length; i++) {
      const guard = candidates[i]!.guard;
      const test = tests[i]!;
      let passed: boolean;
      try {
        passed = test === null || test(snap, ev);
      } catch (err) {
        // The message StateNode.next gives (a throwing mutant guard reads the same either way).
        const name = typeof guard === 'string' ? guard : typeof guard === 'object' ? (guard as { type?: string }).type : undefined;
        throw new Error(`Unable to evaluate guard ${name ? `'${name}' ` : ''}in transition for event '${type}' in state node '${node.id}':\n${(err as Error).message}`);
      }
      if (passed) return counts[i]!;
    }
    return 0;
  };
}

/** `child ?? own`: xstate asks the inner node first and its parent only when the inner selects nothing. */
function orElse(inner: Selector | null, own: Selector | null): Selector | null {
  if (inner === null) return own;
  if (own === null) return inner;
  return (snap, ev) => inner(snap, ev) || own(snap, ev);
}

function child(node: AnyStateNode, key: string): AnyStateNode {
  const c = (node.states as Record<string, AnyStateNode | undefined>)[key];
  if (c === undefined) throw new Error(`Child state '${key}' does not exist on '${node.id}'`);
  return c;
}

/** `transitionNode(node, value, …)` for one event type, compiled; `null` when nothing can ever be selected. */
function compile(node: AnyStateNode, value: StateValue, type: string): Selector | null {
  const own = nodeNext(node, type);
  if (typeof value === 'string') return orElse(nodeNext(child(node, value), type), own);
  const keys = Object.keys(value);
  if (keys.length === 1) return orElse(compile(child(node, keys[0]!), value[keys[0]!]!, type), own);
  // Parallel: every region's selection together; the node's own only when no region selects.
  const regions = keys
    .filter((k) => value[k])
    .map((k) => compile(child(node, k), value[k]!, type))
    .filter((s): s is Selector => s !== null);
  if (regions.length === 0) return own;
  const inner: Selector = (snap, ev) => {
    let best: Selected = 0;
    for (const r of regions) {
      const s = r(snap, ev); // no short-circuit: xstate evaluates every region
      if (s > best) best = s;
    }
    return best;
  };
  return orElse(inner, own);
}

/** Event descriptors this mirror does not cover (wildcards); a machine with one uses `can` instead. */
function hasWildcards(node: AnyStateNode): boolean {
  for (const k of node.transitions.keys()) if (k === '*' || k.endsWith('.*')) return true;
  return Object.values(node.states as Record<string, AnyStateNode>).some(hasWildcards);
}

/**
 * For each state configuration (snapshot.value) met, the events of `events` (in their order) that
 * some active node has a transition for, each with a test equal to `snapshot.can(event)`.
 */
export function enabledPlans(machine: FencingMachine, events: readonly FencingEvent[]): (snap: FencingSnapshot) => readonly PlanEntry[] {
  const root = machine.root as AnyStateNode;
  const viaCan = hasWildcards(root);
  const plans = new Map<string, PlanEntry[]>();
  return (snap) => {
    const key = JSON.stringify(snap.value);
    let plan = plans.get(key);
    if (plan === undefined) {
      const byType = new Map<string, Selector | null>();
      plan = [];
      events.forEach((event, index) => {
        if (viaCan) {
          plan!.push({ index, event, enabled: (s) => s.can(event) });
          return;
        }
        if (!byType.has(event.type)) byType.set(event.type, compile(root, snap.value as StateValue, event.type));
        const sel = byType.get(event.type)!;
        if (sel !== null) plan!.push({ index, event, enabled: (s) => sel(s, event) === 2 });
      });
      plans.set(key, plan);
    }
    return plan;
  };
}
