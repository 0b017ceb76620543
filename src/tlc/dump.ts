import { canonicalKey, type FencingState } from '../fencing/state.js';
import { TlcOutputError } from './errors.js';
import { toFencingState } from './fencing-state.js';
import { parseTlaState } from './tla-value.js';

/**
 * TLC's `-dump` file: every distinct reachable state as `State N:` followed by `/\ var = value`
 * lines. Returns the states in file order; throws TlcOutputError on anything else.
 */
export function parseStateDump(text: string): FencingState[] {
  const blocks = text.replace(/\r\n/g, '\n').split(/^State \d+:\s*$/m);
  if (blocks[0]!.trim() !== '') throw new TlcOutputError(`not a TLC state dump: text before the first "State N:" ("${blocks[0]!.trim().slice(0, 60)}")`);
  const states = blocks.slice(1).map((b, i) => {
    try {
      return toFencingState(parseTlaState(b));
    } catch (err) {
      throw new TlcOutputError(`state dump, state ${i + 1}: ${(err as Error).message}`);
    }
  });
  if (states.length === 0) throw new TlcOutputError('the TLC state dump holds no states');
  return states;
}

/** The dump as sorted, de-duplicated canonicalKey() lines: the form evidence/tlc/base.states.txt keeps. */
export function dumpToCanonicalLines(text: string): string[] {
  return [...new Set(parseStateDump(text).map(canonicalKey))].sort();
}
