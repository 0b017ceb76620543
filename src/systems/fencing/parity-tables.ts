/**
 * Fencing's parity tables (`fencecheck parity`): each TLA+ action beside its XState event, its named
 * guards and where it runs on the real system (a version's script, an operator script, a gate step);
 * each invariant beside the model check and the property that judge it; each named guard beside where
 * the implementation enforces it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../core/project-root.js';
import type { ParityTable } from '../../seam/system.js';
import { EFFECTS_OF, EVENT_TYPES, SPEC_GUARD_NAMES, POD_EVENT_TYPES, type FencingEventType } from '../../../models/fencing/index.js';
import { INVARIANT_NAMES } from './invariants.js';
import { SPEC_PATH as SPEC_FILE } from './tlc/config.js';

/** Where each action runs on the real system: a version's script (per phase), an operator script, a gate step. */
const IMPLEMENTATION: Readonly<Record<FencingEventType, { scripts: readonly string[]; gate?: string; note?: string }>> = {
  AcquireO: { scripts: ['O/acquire.lua'] },
  AcquireA: { scripts: ['A/acquire.lua'] },
  AcquireB: { scripts: ['B/acquire.lua'] },
  AcquireC: { scripts: ['C/acquire.lua'] },
  MigrateB: { scripts: ['B/renew.lua'], note: 'migrate-then-renew' },
  ExpireOld: { scripts: ['O/release.lua', 'A/release.lua', 'B/release.lua'], note: 'or TTL expiry' },
  ExpireNew: { scripts: ['B/release.lua', 'C/release.lua'], note: 'or TTL expiry' },
  UpgradePod: { scripts: [], note: 'pod replaced by the target image (driver)' },
  DowngradePod: { scripts: [], note: 'pod replaced by the target image (driver)' },
  AdvanceTarget: { scripts: [], gate: 'AdvanceTarget' },
  Backfill: { scripts: ['ops/backfill.lua'], gate: 'Backfill' },
  RollbackPhase: { scripts: [], gate: 'RollbackPhase' },
  ReverseMerge: { scripts: ['ops/reverse_merge.lua'], gate: 'ReverseMerge' },
  EnterCompatible: { scripts: [], gate: 'EnterCompatible', note: 'then the cluster door' },
  RevertDisabled: { scripts: [], gate: 'RevertDisabled' },
  Enable: { scripts: [], gate: 'Enable' },
};

const LUA_DIR = 'src/systems/fencing/lua';

export interface ActionRow {
  readonly action: string;
  readonly event: string;
  readonly guards: string;
  readonly implementation: string;
}

export interface InvariantRow {
  readonly invariant: string;
  readonly tla: string;
  readonly model: string;
  readonly property: string;
}

export interface GuardRow {
  readonly guard: string;
  readonly tla: string;
  readonly implementation: string;
}

export interface ParityTables {
  readonly actions: readonly ActionRow[];
  readonly invariants: readonly InvariantRow[];
  readonly guards: readonly GuardRow[];
}

/** The gate's rule names per step, or null while src/systems/fencing/gate/ has not landed. */
async function gateRules(): Promise<{ names: readonly string[]; stepOf: (name: string) => string } | null> {
  try {
    const { GATE_RULES } = await import('./gate/rules.js');
    const rules = GATE_RULES as readonly { name: string; step: string }[];
    return { names: rules.map((r) => r.name), stepOf: (n) => rules.find((r) => r.name === n)?.step ?? '' };
  } catch {
    return null;
  }
}

async function rows(root = projectRoot): Promise<ParityTables> {
  const specPath = join(root, SPEC_FILE);
  const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : '';
  const defined = (name: string) => new RegExp(`^${name}(\\([^)]*\\))?\\s*==`, 'm').test(spec);
  const gate = await gateRules();
  const actions = EVENT_TYPES.map((type): ActionRow => {
    const impl = IMPLEMENTATION[type];
    const scripts = impl.scripts.map((s) => (existsSync(join(root, LUA_DIR, s)) ? `${s}` : `${s} (pending)`));
    const gateStep = impl.gate === undefined ? [] : [gate?.names.some((n) => gate.stepOf(n) === impl.gate) ? `gate ${impl.gate}` : `gate ${impl.gate} (pending)`];
    const parts = [...scripts, ...gateStep, ...(impl.note ? [impl.note] : [])];
    const param = (POD_EVENT_TYPES as readonly string[]).includes(type) ? '(p)' : '';
    return {
      action: defined(type) ? `${type}${param}` : `${type}${param} (not in spec)`,
      event: `${type}${param ? ' {p}' : ''} → ${EFFECTS_OF[type].join(', ')}`,
      guards: SPEC_GUARD_NAMES.filter((g) => guardAction(g) === type).join(', ') || 'state node',
      implementation: parts.join('; ') || 'pending',
    };
  });
  const propertyChecks = existsSync(join(root, 'properties/fencing/checks.ts')) ? 'properties/fencing/checks.ts (real keyspace)' : 'pending';
  const invariants = INVARIANT_NAMES.map(
    (name): InvariantRow => ({
      invariant: name,
      tla: defined(name) ? `${name} (${SPEC_FILE})` : 'not in spec',
      model: `INVARIANTS.${name} on every explored state`,
      property: propertyChecks,
    }),
  );
  const guards = SPEC_GUARD_NAMES.map(
    (g): GuardRow => ({
      guard: g,
      tla: defined(g) ? 'named definition' : 'inline conjunct',
      implementation: guardImplementation(g, gate),
    }),
  );
  return { actions, invariants, guards };
}

/** Where the implementation enforces a named guard: a gate rule, a gate state check, a Lua script, or the step driver. */
function guardImplementation(guard: string, gate: Awaited<ReturnType<typeof gateRules>>): string {
  if (gate === null) return 'pending';
  if (gate.names.includes(guard)) return `gate rule (${gate.stepOf(guard)})`;
  const action = guardAction(guard);
  if (!(action in IMPLEMENTATION)) return 'in the script';
  const impl = IMPLEMENTATION[action as FencingEventType];
  if (impl.gate) return 'state check';
  // Pod image changes have no script: the step driver replaces the pod.
  return impl.scripts.length > 0 ? 'in the script' : 'in the step driver';
}

/** The action a guard belongs to: its name's prefix (AdvanceToC_Gate and RollbackToO_* are AdvanceTarget/RollbackPhase). */
function guardAction(guard: string): string {
  const prefix = guard.split('_')[0]!;
  if (prefix === 'AdvanceToC') return 'AdvanceTarget';
  if (prefix === 'Rollback' || prefix === 'RollbackToO') return 'RollbackPhase';
  return prefix;
}

/** The three tables in the seam's shape. */
export async function fencingParityTables(root = projectRoot): Promise<ParityTable[]> {
  const t = await rows(root);
  return [
    { title: 'actions', columns: ['TLA+ action', 'XState event → effects', 'named guards', 'Lua script / gate step'], rows: t.actions.map((r) => [r.action, r.event, r.guards, r.implementation]) },
    { title: 'invariants', columns: ['invariant', 'TLA+', 'model check', 'property'], rows: t.invariants.map((r) => [r.invariant, r.tla, r.model, r.property]) },
    { title: 'guards', columns: ['named guard', 'TLA+', 'implementation'], rows: t.guards.map((r) => [r.guard, r.tla, r.implementation]) },
  ];
}
