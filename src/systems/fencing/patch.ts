/**
 * What a mutants/fencing/impl/Mx.ts module default-exports: a change to the implementation layer that the
 * ordinary property suite runs against, without the suite knowing which mutant it is.
 * - `lua`: a source transform per script (M1, M2, M3, M5); return the source unchanged for scripts
 *   the mutant does not touch, and throw when the expected text is not there (an invalid mutant).
 * - `dropGateRules`: deployment-gate rules the gate is built without (M4, M6, M7, M8, M9).
 * - `gateRules`: rewrites the gate's rule list (change a part of a rule: its check, its step).
 * - `observations`: rewrites what the deploy records and the keyspace census tell the gate.
 * - `lua` also receives `lib/prelude`, the value helpers every fencing script starts with.
 */
import type { FencingScriptName } from './script-names.js';
import type { GateRule, GateRuleName } from './gate/rules.js';
import type { GateObservations } from './gate/observations.js';

export interface ImplPatch {
  readonly lua?: (script: FencingScriptName | 'lib/prelude', source: string) => string;
  readonly dropGateRules?: readonly GateRuleName[];
  readonly gateRules?: (rules: readonly GateRule[]) => readonly GateRule[];
  readonly observations?: (obs: GateObservations) => GateObservations;
}

/** True when the module's default export is a patch that changes something. */
export function isImplPatch(x: unknown): x is ImplPatch {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  return ['lua', 'dropGateRules', 'gateRules', 'observations'].some((k) => p[k] !== undefined);
}

/** Replaces `from` by `to` in one line; throws when `from` is not there (the mutant would be a no-op). */
export function replaceExactly(line: string, from: string, to: string): string {
  if (!line.includes(from)) throw new Error(`mutant patch: '${from}' not found in: ${line.trim()}`);
  return line.replace(from, to);
}

/** A Lua transform that deletes or rewrites one marked line of one script; fails loudly if absent. */
export function rewriteLine(script: FencingScriptName | 'lib/prelude', marker: string, rewrite: (line: string) => string): ImplPatch['lua'] {
  return (name, source) => {
    if (name !== script) return source;
    const lines = source.split('\n');
    const i = lines.findIndex((l) => l.includes(marker));
    if (i < 0) throw new Error(`mutant patch: '${marker}' not found in ${script}.lua`);
    lines[i] = rewrite(lines[i]!);
    return lines.join('\n');
  };
}
