import { evalScript } from '../../valkey/scripts/index.js';
import { orderedLimiterScript, type LimiterOptions, type ScriptCall } from './client.js';

/**
 * A change to the limiter as deployed: a rewrite of the Lua source and/or a wrapper around how the
 * client runs it. Mutants (mutants/limiter/impl/Lx.ts) default-export one; the properties only ever see
 * the resulting LimiterOptions, never which patch produced them.
 */
export interface LimiterPatch {
  readonly transformSource?: (source: string) => string;
  readonly wrapCall?: (call: ScriptCall) => ScriptCall;
}

/** Client options for a patch (none: the shipped script run by evalScript). */
export function limiterOptions(patch?: LimiterPatch): LimiterOptions {
  return {
    ...(patch?.transformSource ? { script: orderedLimiterScript(patch.transformSource) } : {}),
    ...(patch?.wrapCall ? { call: patch.wrapCall(evalScript) } : {}),
  };
}

/** Replaces `find` in `source` exactly once; a patch that no longer matches the script is invalid. */
export function replaceOnce(source: string, find: string, replacement: string): string {
  const at = source.indexOf(find);
  if (at === -1 || source.indexOf(find, at + 1) !== -1) throw new Error(`limiter patch: expected exactly one occurrence of ${JSON.stringify(find)}`);
  return source.slice(0, at) + replacement + source.slice(at + find.length);
}
