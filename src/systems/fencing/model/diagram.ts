/**
 * The machine as a Mermaid state diagram, generated from the machine definition itself (state nodes,
 * transitions, named guards and effects), so the picture cannot drift from the model:
 * `fencecheck diagram` writes it, test/fencing/model/diagram.test.ts fails when the committed copy is stale.
 */
import { POD_EVENT_TYPES, fencingMachine, type FencingMachine } from '../../../../models/fencing/index.js';

export const DIAGRAM_PATH = 'docs/diagrams/fencing-machine.md';

type StateNodeLike = FencingMachine['root'];
type TransitionLike = ReturnType<StateNodeLike['transitions']['get']> extends (infer T)[] | undefined ? T : never;

/** The named guards of a transition: a name, or the names inside and([...]). */
function guardNames(guard: unknown): string[] {
  if (guard === undefined) return [];
  if (typeof guard === 'string') return [guard];
  const inner = (guard as { guards?: unknown[] }).guards;
  if (Array.isArray(inner)) return inner.flatMap(guardNames);
  return ['(inline guard)'];
}

function actionNames(t: TransitionLike): string[] {
  return t.actions.map((a) => (typeof a === 'string' ? a : ((a as { type?: string }).type ?? '(inline action)')));
}

function label(event: string, t: TransitionLike): string {
  const guards = guardNames(t.guard);
  const g = guards.length > 0 ? ` [${guards.join(' ∧ ')}]` : '';
  const param = (POD_EVENT_TYPES as readonly string[]).includes(event) ? '(p)' : '';
  return `${event}${param}${g} / ${actionNames(t).join(', ')}`;
}

function transitionsOf(node: StateNodeLike): [string, TransitionLike][] {
  return [...node.transitions.entries()].flatMap(([event, ts]) => ts.map((t): [string, TransitionLike] => [event, t]));
}

function region(node: StateNodeLike, indent: string): string[] {
  const lines = [`${indent}state ${node.key} {`];
  const inner = `${indent}  `;
  if (node.initial?.target[0]) lines.push(`${inner}[*] --> ${node.initial.target[0].key}`);
  for (const child of Object.values(node.states)) {
    const out = transitionsOf(child);
    if (out.length === 0) lines.push(`${inner}${child.key}`);
    for (const [event, t] of out) lines.push(`${inner}${child.key} --> ${t.target?.[0]?.key ?? child.key}: ${label(event, t)}`);
  }
  lines.push(`${indent}}`);
  return lines;
}

/** stateDiagram-v2 text: the two parallel regions, and the root-level steps in a note. */
export function machineMermaid(machine: FencingMachine = fencingMachine): string {
  const root = machine.root;
  const regions = Object.values(root.states).map((r) => region(r, '    '));
  const lines = ['stateDiagram-v2', `  state ${root.key} {`];
  regions.forEach((r, i) => {
    if (i > 0) lines.push('    --');
    lines.push(...r);
  });
  lines.push('  }');
  const rootSteps = transitionsOf(root);
  if (rootSteps.length > 0) {
    lines.push(`  note right of ${root.key}`);
    lines.push('    In every state (both regions stay put):');
    for (const [event, t] of rootSteps) lines.push(`    ${label(event, t)}`);
    lines.push('  end note');
  }
  return lines.join('\n');
}

/** The whole generated Markdown page. */
export function diagramDocument(machine: FencingMachine = fencingMachine): string {
  return [
    '# The fencing machine (generated)',
    '',
    'Generated from `models/fencing/machine.ts` by `fencecheck diagram`; do not edit by hand',
    '(`test/fencing/model/diagram.test.ts` fails when this copy is out of date).',
    '',
    'Two parallel regions: `mode` (the cluster mode doors; nothing leaves `enabled`) and `target` (the',
    'phase the fleet chases). Labels read `Event [named guards] / named effects`. The acquisitions, the',
    "renew-migrate, expiry and per-pod upgrade/downgrade change neither region: they are the root's",
    'transitions, listed in the note.',
    '',
    '```mermaid',
    machineMermaid(machine),
    '```',
    '',
  ].join('\n');
}
