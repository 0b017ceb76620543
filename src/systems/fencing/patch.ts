/**
 * What a mutants/fencing/impl/Mx.ts module default-exports: a change to the implementation layer that the
 * ordinary property suite runs against, without the suite knowing which mutant it is.
 * - `lua`: a source transform per script (M1, M2, M3, M5); return the source unchanged for scripts
 *   the mutant does not touch, and throw when the expected text is not there (an invalid mutant).
 * - `dropGateRules`: deployment-gate rules the gate is built without (M4, M6, M7, M8, M9).
 * - `gateRules`: rewrites the gate's rule list (change a part of a rule: its check, its step).
 * - `observations`: rewrites what the deploy records and the keyspace census tell the gate.
 * - `gateRecords`: rewrites what an allowed gate step records (the deploy's target phase and
 *   backfill record): a rollback that forgets to clear the backfill record, an advance that skips
 *   a phase. Without it a patch could change what the gate is told and which rules it applies, but
 *   not what it writes down.
 * - `lua` also receives `lib/prelude`, the value helpers every fencing script starts with.
 * A user's own patch file (`conform --patch FILE`) default-exports the same.
 */
import type { FencingScriptName } from './script-names.js';
import type { GateRule, GateRuleName, GateStep } from './gate/rules.js';
import type { GateObservations } from './gate/observations.js';
import type { Phase } from './state.js';

/** What an allowed gate step writes down: the fleet's target phase and whether the new counter was backfilled. */
export interface DeployRecords {
  readonly target: Phase;
  readonly backfilled: boolean;
}

export interface ImplPatch {
  readonly lua?: (script: FencingScriptName | 'lib/prelude', source: string) => string;
  readonly dropGateRules?: readonly GateRuleName[];
  readonly gateRules?: (rules: readonly GateRule[]) => readonly GateRule[];
  readonly observations?: (obs: GateObservations) => GateObservations;
  /** `recorded`: what the real step records; `before`: the records before it. Returns what is recorded instead. */
  readonly gateRecords?: (step: GateStep, recorded: DeployRecords, before: DeployRecords) => DeployRecords;
}

/** What fencing's patch files default-export, for messages. */
export const IMPL_PATCH_TYPE = 'a fencing ImplPatch ({ lua?, dropGateRules?, gateRules?, observations?, gateRecords? })';

/** True when the module's default export is a patch that changes something. */
export function isImplPatch(x: unknown): x is ImplPatch {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  const fns = ['lua', 'gateRules', 'observations', 'gateRecords'];
  if (fns.some((k) => p[k] !== undefined && typeof p[k] !== 'function')) return false;
  if (p.dropGateRules !== undefined && !(Array.isArray(p.dropGateRules) && p.dropGateRules.every((r) => typeof r === 'string'))) return false;
  return [...fns, 'dropGateRules'].some((k) => p[k] !== undefined);
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
