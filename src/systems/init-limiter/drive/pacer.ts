/**
 * How a paced client lets time pass between reads: real time against any server, or the server's
 * manual clock (advanced over the control endpoint) under the test seams — then a "100 KB/s reader"
 * reads 100 KB per advanced second, whatever the machine's load.
 */
import type { ControlClient } from './control-client.js';

export interface Pacer {
  readonly kind: 'real' | 'manual';
  wait(ms: number): Promise<void>;
}

export const REAL_PACER: Pacer = { kind: 'real', wait: (ms) => new Promise((r) => setTimeout(r, ms)) };

export function manualPacer(control: ControlClient): Pacer {
  return { kind: 'manual', wait: async (ms) => void (await control.advance(ms)) };
}
