import { clientsOf, type ClientId, type InitLimiterBounds, type InitLimiterModelState, type Poller, type Stream } from '../../src/systems/init-limiter/model-state.js';

/**
 * One event per TLA+ action instance of tla/init-limiter/InitLimiter.tla's Next: the `\E` of Next
 * becomes the event's parameters. Connect and Poll range over every version (their guard admits
 * only 0 and the store's current one), as Next's `b \in Versions` does.
 */
export type InitLimiterModelEvent =
  | { readonly type: 'Connect'; readonly c: Stream; readonly b: number }
  | { readonly type: 'Decide'; readonly c: Stream }
  | { readonly type: 'Poll'; readonly p: Poller; readonly b: number }
  | { readonly type: 'Admit' | 'Handoff' | 'CaptureDone' | 'Stall' | 'IdleTimeout' | 'Disconnect'; readonly c: ClientId }
  | { readonly type: 'Publish' | 'Tick' };

export type InitLimiterEventType = InitLimiterModelEvent['type'];

/** The spec's action names, in Next's order (tla/init-limiter/README.md lists what each does). */
export const INIT_LIMITER_ACTIONS = [
  'Connect',
  'Decide',
  'Poll',
  'Admit',
  'Handoff',
  'CaptureDone',
  'Stall',
  'IdleTimeout',
  'Disconnect',
  'Publish',
  'Tick',
] as const satisfies readonly InitLimiterEventType[];

const PER_CLIENT = ['Admit', 'Handoff', 'CaptureDone', 'Stall', 'IdleTimeout', 'Disconnect'] as const;

/**
 * The action instances TLC tries in a state, in Next's order. Whether one is enabled is the
 * machine's answer (its guards), not this list's; none depends on the state.
 */
export function candidateEvents(_s: InitLimiterModelState, b: InitLimiterBounds): InitLimiterModelEvent[] {
  const out: InitLimiterModelEvent[] = [];
  const versions = Array.from({ length: b.maxVersion + 1 }, (_, v) => v);
  for (const c of b.streams) for (const v of versions) out.push({ type: 'Connect', c, b: v });
  for (const c of b.streams) out.push({ type: 'Decide', c });
  for (const p of b.polls) for (const v of versions) out.push({ type: 'Poll', p, b: v });
  for (const c of clientsOf(b)) for (const type of PER_CLIENT) out.push({ type, c });
  out.push({ type: 'Publish' }, { type: 'Tick' });
  return out;
}

/** `Connect(s1,0)`, `Tick`: the action instance exactly as TLC labels it in its state graph. */
export function initLimiterEventLabel(ev: InitLimiterModelEvent): string {
  switch (ev.type) {
    case 'Connect':
      return `Connect(${ev.c},${ev.b})`;
    case 'Poll':
      return `Poll(${ev.p},${ev.b})`;
    case 'Publish':
    case 'Tick':
      return ev.type;
    default:
      return `${ev.type}(${ev.c})`;
  }
}

/** The client an event is about; an event without one given to a client rule is a wiring bug. */
export function clientOf(ev: InitLimiterModelEvent): ClientId {
  if ('c' in ev) return ev.c;
  if ('p' in ev) return ev.p;
  throw new TypeError(`${ev.type} carries no client`);
}

/** The basis a Connect or Poll asks with. */
export function basisOf(ev: InitLimiterModelEvent): number {
  if (!('b' in ev)) throw new TypeError(`${ev.type} carries no basis`);
  return ev.b;
}
