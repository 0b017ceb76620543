/**
 * The one inert actor scope every twin steps with, as xstate/graph's traversal does: a twin's
 * effects are all `assign`s, which `machine.transition` applies itself, so nothing needs executing
 * (xstate's `transition()` helper builds a fresh actor per call, ~20x slower).
 */
import { createEmptyActor } from 'xstate';

const inert = createEmptyActor();

/** Typed as the third parameter of the given machine's `transition`. */
export function inertScope<S>(sessionId: string): S {
  return {
    self: inert,
    logger: () => {},
    id: '',
    sessionId,
    defer: () => {},
    system: inert.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as S;
}
