import { TlcOutputError } from './errors.js';
import { parseTlaState, type TlaValue } from '../core/tla-value.js';

/**
 * TLC's `-dump` file: every distinct reachable state as `State N:` followed by `/\ var = value`
 * lines, each mapped by `toState` (a system's TLC-state mapping). Returns the states in file order;
 * throws TlcOutputError on anything else.
 */
export function parseStateDumpWith<S>(text: string, toState: (vars: Record<string, TlaValue>) => S): S[] {
  const blocks = text.replace(/\r\n/g, '\n').split(/^State \d+:\s*$/m);
  if (blocks[0]!.trim() !== '') throw new TlcOutputError(`not a TLC state dump: text before the first "State N:" ("${blocks[0]!.trim().slice(0, 60)}")`);
  const states = blocks.slice(1).map((b, i) => {
    try {
      return toState(parseTlaState(b));
    } catch (err) {
      throw new TlcOutputError(`state dump, state ${i + 1}: ${(err as Error).message}`);
    }
  });
  if (states.length === 0) throw new TlcOutputError('the TLC state dump holds no states');
  return states;
}
