import type { PauseBounds, PauseEvent, PauseModelState, PendingCall, Replica } from '../../src/systems/pause/model-state.js';

/**
 * One event per TLA+ action instance of tla/pause/PauseSnapshot.tla's Next: the `\E` of Next
 * becomes the event's parameters (`r`, `p`, `c`, `e`). `Tick` carries the witness `r` of its
 * `\E r \in Replicas : ...` guard, because TLC generates one successor per witness (its "states
 * generated" counts each); every witness leads to the same state. `Read` is the hot read
 * (the operator `Answer(r)`): no transition takes it, the Read_FailClosed guard answers it.
 */
export type PauseModelEvent =
  | { readonly type: 'Subscribe' | 'Load' | 'Ready' | 'Reconcile' | 'Tick' | 'Read'; readonly r: Replica }
  | { readonly type: 'BeginSetPaused'; readonly r: Replica; readonly p: boolean }
  | { readonly type: 'CommitSetPaused' | 'FailSetPaused'; readonly c: PendingCall }
  | { readonly type: 'Deliver' | 'Drop'; readonly r: Replica; readonly e: PauseEvent };

export type PauseEventType = PauseModelEvent['type'];

/** The spec's action names, in Next's order (Read is not an action). */
export const PAUSE_ACTIONS = ['Subscribe', 'Load', 'Ready', 'BeginSetPaused', 'CommitSetPaused', 'FailSetPaused', 'Deliver', 'Drop', 'Reconcile', 'Tick'] as const satisfies readonly PauseEventType[];

/**
 * The action instances TLC tries in `s`, in Next's order: the quantifier domains, some of which are
 * the state's own sets (`\E c \in pending`, `\E e \in chan[r]`). Whether one is enabled is the
 * machine's answer (its guards), not this list's.
 */
export function candidateEvents(s: PauseModelState, b: PauseBounds): PauseModelEvent[] {
  const out: PauseModelEvent[] = [];
  for (const r of b.replicas) for (const type of ['Subscribe', 'Load', 'Ready'] as const) out.push({ type, r });
  for (const r of b.replicas) for (const p of [false, true]) out.push({ type: 'BeginSetPaused', r, p });
  for (const c of s.pending) for (const type of ['CommitSetPaused', 'FailSetPaused'] as const) out.push({ type, c });
  for (const r of b.replicas) for (const e of s.chan[r] ?? []) for (const type of ['Deliver', 'Drop'] as const) out.push({ type, r, e });
  for (const r of b.replicas) out.push({ type: 'Reconcile', r });
  for (const r of b.replicas) out.push({ type: 'Tick', r });
  return out;
}

const tla = (x: boolean): string => (x ? 'TRUE' : 'FALSE');

/** `Deliver(r1, [paused |-> TRUE, version |-> 1])`, `Tick`: the TLA+ action instance. */
export function pauseEventLabel(ev: PauseModelEvent): string {
  switch (ev.type) {
    case 'BeginSetPaused':
      return `BeginSetPaused(${ev.r}, ${tla(ev.p)})`;
    case 'CommitSetPaused':
    case 'FailSetPaused':
      return `${ev.type}([by |-> ${ev.c.by}, paused |-> ${tla(ev.c.paused)}, version |-> ${ev.c.version}])`;
    case 'Deliver':
    case 'Drop':
      return `${ev.type}(${ev.r}, [paused |-> ${tla(ev.e.paused)}, version |-> ${ev.e.version}])`;
    case 'Tick':
      return 'Tick';
    default:
      return `${ev.type}(${ev.r})`;
  }
}
