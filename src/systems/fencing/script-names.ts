/** The names of the fencing scripts: one Lua file per operation and script version (src/systems/fencing/lua/). */
import type { Phase } from './state.js';

export const FENCING_OPS = ['acquire', 'renew', 'release', 'lookup', 'known_generation', 'validate_fenced_header'] as const;
export type FencingOp = (typeof FENCING_OPS)[number];
export const OPERATOR_OPS = ['backfill', 'reverse_merge', 'census'] as const;
export type OperatorOp = (typeof OPERATOR_OPS)[number];
/** `B/acquire`, `ops/backfill`: a script's name, also its path under src/systems/fencing/lua without `.lua`. */
export type FencingScriptName = `${Phase}/${FencingOp}` | `ops/${OperatorOp}`;
