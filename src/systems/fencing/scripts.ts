/**
 * The catalogue of fencing scripts: one Lua file per operation and script version
 * (lua/<O|A|B|C>/<op>.lua, the normative per-phase operation table) plus the operator scripts
 * (lua/ops/*.lua). Each file is loaded with the value-helper prelude (lua/lib/prelude.lua) prepended,
 * through the foundation's loadLuaScript, so the static KEYS check runs on exactly what is sent.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadLuaScript, type LuaScript } from '../../valkey/scripts/index.js';
import { PHASES, type Phase } from './state.js';
import type { KeyRole } from './keys.js';
import type { ImplPatch } from './patch.js';
import { projectRoot } from '../../core/project-root.js';

export { FENCING_OPS, OPERATOR_OPS, type FencingOp, type FencingScriptName, type OperatorOp } from './script-names.js';
import { FENCING_OPS, OPERATOR_OPS, type FencingOp, type FencingScriptName } from './script-names.js';

const OLD_PAIR: readonly KeyRole[] = ['oldLease', 'oldGen'];
const NEW_PAIR: readonly KeyRole[] = ['newLease', 'newGen'];
const BOTH_PAIRS: readonly KeyRole[] = ['oldLease', 'oldGen', 'newLease', 'newGen'];
const BOTH_LEASES: readonly KeyRole[] = ['oldLease', 'newLease'];
const BOTH_COUNTERS: readonly KeyRole[] = ['oldGen', 'newGen'];

/** The KEYS each script declares, in order (the table's key rule per version). */
export const KEYS_OF: Readonly<Record<Phase, Readonly<Record<FencingOp, readonly KeyRole[]>>>> = {
  O: { acquire: OLD_PAIR, renew: ['oldLease'], release: ['oldLease'], lookup: ['oldLease'], known_generation: ['oldGen'], validate_fenced_header: OLD_PAIR },
  A: { acquire: BOTH_PAIRS, renew: ['oldLease'], release: ['oldLease'], lookup: BOTH_LEASES, known_generation: BOTH_COUNTERS, validate_fenced_header: BOTH_PAIRS },
  B: { acquire: BOTH_PAIRS, renew: BOTH_LEASES, release: BOTH_LEASES, lookup: BOTH_LEASES, known_generation: BOTH_COUNTERS, validate_fenced_header: BOTH_PAIRS },
  C: { acquire: NEW_PAIR, renew: ['newLease'], release: ['newLease'], lookup: ['newLease'], known_generation: ['newGen'], validate_fenced_header: NEW_PAIR },
};

export const LUA_DIR = resolve(projectRoot, 'src/systems/fencing/lua');

export function scriptPath(name: FencingScriptName): string {
  return resolve(LUA_DIR, `${name}.lua`);
}

export function allScriptNames(): FencingScriptName[] {
  const perVersion = PHASES.flatMap((v) => FENCING_OPS.map((op): FencingScriptName => `${v}/${op}`));
  return [...perVersion, ...OPERATOR_OPS.map((op): FencingScriptName => `ops/${op}`)];
}

export interface FencingScripts {
  get(name: FencingScriptName): LuaScript;
}

let prelude: string | undefined;
function preludeSource(patch?: ImplPatch): string {
  prelude ??= readFileSync(resolve(LUA_DIR, 'lib/prelude.lua'), 'utf8');
  return patch?.lua ? patch.lua('lib/prelude', prelude) : prelude;
}

/**
 * Loads (and statically checks) every fencing script, applying a mutant's Lua transform first when
 * a patch carries one. Throws the foundation's ScriptCheckError for a script that reaches an
 * undeclared key, and the patch's own error when its transform does not apply.
 */
export function loadFencingScripts(patch?: ImplPatch): FencingScripts {
  const scripts = new Map<FencingScriptName, LuaScript>();
  const lib = preludeSource(patch);
  for (const name of allScriptNames()) {
    const transform = (source: string) => `${lib}\n${patch?.lua ? patch.lua(name, source) : source}`;
    scripts.set(name, loadLuaScript(scriptPath(name), { name: `fencing/${name}`, transform }));
  }
  return {
    get(name) {
      const s = scripts.get(name);
      if (!s) throw new RangeError(`no fencing script ${name}`);
      return s;
    },
  };
}
