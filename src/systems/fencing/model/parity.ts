/**
 * Parity between the three layers: the machine's reachable states against TLC's (same count, same
 * set of canonical keys), its labelled transitions against TLC's state graph (same (state, action
 * with its parameter, successor) triples, self-loops included), the TLA+ action alphabet against the
 * machine's events, and the tables that
 * lay action ↔ event ↔ Lua script / gate step and invariant ↔ model check ↔ property side by side.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVARIANT_NAMES } from '../invariants.js';
import { projectRoot } from '../../../core/project-root.js';
import { canonicalEdgesSha256, isSelfLoop, splitEdgeLine } from '../tlc/edges.js';
import { readBaseEdges, readBaseStateDump, type EdgeDump, type EdgeEvidence, type StateDump } from '../tlc/evidence.js';
import { explore } from './explore.js';
import { EFFECTS_OF, EVENT_TYPES, SPEC_GUARD_NAMES, POD_EVENT_TYPES, type FencingEventType, type FencingOverrides } from '../../../../models/fencing/index.js';

export const SPEC_FILE = 'tla/fencing/RedisClusterFencingMigration.tla';

import { compareStateSets, type SetComparison } from '../../../seam/state-sets.js';

export { compareStateSets, type SetComparison };

/** The edge sets compared: a SetComparison of canonical edge lines, plus self-loops and hashes per side. */
export interface EdgeComparison extends SetComparison {
  readonly machineSelfLoops: number;
  readonly tlcSelfLoops: number;
  /** SHA-256 of each side's sorted canonical edge lines (src/systems/fencing/tlc/edges.ts canonicalEdgesSha256). */
  readonly machineSha256: string;
  readonly tlcSha256: string;
}

/**
 * Compares two sets of canonical edge lines `from|Action(p)|to`. The rule: self-loops are labelled
 * transitions of the model like any other (TLC's dot dump writes them too), so the full sets are
 * compared; the self-loop counts are reported beside them.
 */
export function compareEdgeSets(machine: Iterable<string>, tlc: Iterable<string>, show = 5): EdgeComparison {
  const m = [...new Set(machine)].sort();
  const t = [...new Set(tlc)].sort();
  return {
    ...compareStateSets(m, t, show),
    machineSelfLoops: m.filter(isSelfLoop).length,
    tlcSelfLoops: t.filter(isSelfLoop).length,
    machineSha256: canonicalEdgesSha256(m),
    tlcSha256: canonicalEdgesSha256(t),
  };
}

/** An edge line for people: `Action(p): from\n    → to` (the successor written as its changed fields). */
export function formatEdge(line: string, indent = '  '): string {
  const { from, label, to } = splitEdgeLine(line);
  const before = new Map(from.split(';').map((kv) => kv.split('=') as [string, string]));
  const changed = to.split(';').filter((kv) => before.get(kv.split('=')[0]!) !== kv.split('=')[1]);
  return `${indent}${label} from ${from}\n${indent}    → ${from === to ? 'itself (self-loop)' : changed.join(';')}`;
}

/** The action names of the spec's `Next` disjunction (`\E p \in Pods : AcquireO(p) \/ ...`). */
export function specActions(specText: string): string[] {
  const m = /^Next\s*==([\s\S]*?)(?:\n\s*\n|\n[A-Z][A-Za-z_]*\s*==)/m.exec(specText);
  if (!m) throw new Error(`${SPEC_FILE}: no Next == definition found`);
  const names = [...m[1]!.matchAll(/\b([A-Z][A-Za-z0-9_]*)\b/g)].map((x) => x[1]!);
  return [...new Set(names.filter((n) => n !== 'E' && n !== 'Pods'))];
}

export interface AlphabetComparison {
  readonly equal: boolean;
  readonly onlySpec: readonly string[];
  readonly onlyMachine: readonly string[];
}

export function compareAlphabet(spec: readonly string[], machine: readonly string[] = EVENT_TYPES): AlphabetComparison {
  const onlySpec = spec.filter((a) => !machine.includes(a));
  const onlyMachine = machine.filter((e) => !spec.includes(e));
  return { equal: onlySpec.length === 0 && onlyMachine.length === 0, onlySpec, onlyMachine };
}

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
    const { GATE_RULES } = await import('../gate/rules.js');
    const rules = GATE_RULES as readonly { name: string; step: string }[];
    return { names: rules.map((r) => r.name), stepOf: (n) => rules.find((r) => r.name === n)?.step ?? '' };
  } catch {
    return null;
  }
}

export async function parityTables(root = projectRoot): Promise<ParityTables> {
  const specPath = join(root, SPEC_FILE);
  const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : '';
  const defined = (name: string) => new RegExp(`^${name}(\\([^)]*\\))?\\s*==`, 'm').test(spec);
  const gate = await gateRules();
  const actions = EVENT_TYPES.map((type): ActionRow => {
    const impl = IMPLEMENTATION[type];
    const scripts = impl.scripts.map((s) => (existsSync(join(root, LUA_DIR, s)) ? `${s}` : `${s} (pending)`));
    const gateStep = impl.gate === undefined ? [] : [gate && gate.names.some((n) => gate.stepOf(n) === impl.gate) ? `gate ${impl.gate}` : `gate ${impl.gate} (pending)`];
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
  const invariants = INVARIANT_NAMES.map((name): InvariantRow => ({
    invariant: name,
    tla: defined(name) ? `${name} (${SPEC_FILE})` : 'not in spec',
    model: `INVARIANTS.${name} on every explored state`,
    property: propertyChecks,
  }));
  const guards = SPEC_GUARD_NAMES.map((g): GuardRow => ({
    guard: g,
    tla: defined(g) ? 'named definition' : 'inline conjunct',
    implementation: guardImplementation(g, gate),
  }));
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

export interface ParityResult {
  readonly status: 'passed' | 'failed' | 'not-run';
  readonly reason?: string;
  readonly alphabet?: AlphabetComparison;
  readonly sets?: SetComparison;
  readonly edges?: EdgeComparison;
  readonly machine?: { readonly distinct: number; readonly generated: number; readonly edges: number; readonly selfLoops: number; readonly durationMs: number };
  readonly tlc?: Omit<StateDump, 'states'> & { readonly edges: EdgeEvidence };
}

export interface ParityOptions {
  /** Explore a mutated machine instead of the base one (machine.provide()), e.g. to see parity break. */
  readonly overrides?: FencingOverrides;
}

/**
 * The whole check: the action alphabets, then the reachable states and the labelled edges against
 * TLC's state graph in `root`'s evidence, on the bounds TLC ran. Missing or stale evidence → not-run
 * with the evidence's reason.
 */
export function checkParity(root = projectRoot, show = 5, opts: ParityOptions = {}): ParityResult {
  let alphabet: AlphabetComparison;
  try {
    alphabet = compareAlphabet(specActions(readFileSync(join(root, SPEC_FILE), 'utf8')));
  } catch (err) {
    return { status: 'not-run', reason: `cannot read the spec's actions: ${(err as Error).message}` };
  }
  let dump: StateDump;
  let graph: EdgeDump;
  try {
    dump = readBaseStateDump(root);
    graph = readBaseEdges(root);
  } catch (err) {
    return { status: 'not-run', reason: (err as Error).message, alphabet };
  }
  const run = explore({ bounds: dump.bounds, edges: true, ...(opts.overrides && { overrides: opts.overrides }) });
  const sets = compareStateSets(run.states.keys(), dump.states, show);
  const edges = compareEdgeSets(run.edges!, graph.edges, show);
  const { states: _states, ...tlc } = dump;
  const ok = sets.equal && edges.equal && alphabet.equal;
  const problems = [
    ...(sets.equal ? [] : [`${sets.onlyMachineCount} states only the machine reaches, ${sets.onlyTlcCount} only TLC reaches`]),
    ...(edges.equal ? [] : [`${edges.onlyMachineCount} labelled edges only the machine has, ${edges.onlyTlcCount} only TLC has`]),
    ...(alphabet.equal ? [] : ['the action alphabets differ']),
  ];
  return {
    status: ok ? 'passed' : 'failed',
    ...(ok ? {} : { reason: problems.join('; ') }),
    alphabet,
    sets,
    edges,
    machine: { distinct: run.distinct, generated: run.generated, edges: run.edges!.length, selfLoops: run.selfLoops, durationMs: run.durationMs },
    tlc: { ...tlc, edges: graph.evidence },
  };
}
