import { allEvents, applyEffect, eventParams, nextState, type FencingEvent } from '../../models/fencing/index.js';
import { canonicalKey, type FencingBounds, type FencingState } from '../systems/fencing/state.js';

export type Inferred =
  | { readonly action: string; readonly params: Readonly<Record<string, string>>; readonly alternatives: readonly string[] }
  | { readonly none: true };

function label(ev: FencingEvent): string {
  const p = eventParams(ev).p;
  return p ? `${ev.type}(${p})` : ev.type;
}

/**
 * Which action of the XState twin (models/fencing) turns `prev` into `next`, for a trace that names
 * none (an ITF file without `action`). Effects are applied without guards first, because a mutant's
 * counterexample takes steps the shipped guards refuse; among several fits, those the guards allow
 * are preferred, and the other equally good fits are returned as `alternatives` (e.g. two stuttering steps).
 */
export function inferAction(prev: FencingState, next: FencingState, bounds: FencingBounds): Inferred {
  const want = canonicalKey(next);
  const fits: FencingEvent[] = [];
  for (const ev of allEvents(bounds)) {
    let s: FencingState;
    try {
      s = applyEffect(prev, ev, bounds);
    } catch {
      continue; // the effect is undefined here (AdvanceTarget from C)
    }
    if (canonicalKey(s) === want) fits.push(ev);
  }
  if (fits.length === 0) return { none: true };
  const allowed = fits.filter((ev) => nextState(prev, ev, bounds) !== null);
  // Fits the guards refuse only matter when no allowed one exists (a mutant's step).
  const pool = allowed.length > 0 ? allowed : fits;
  const first = pool[0]!;
  return { action: first.type, params: eventParams(first), alternatives: pool.slice(1).map(label) };
}
