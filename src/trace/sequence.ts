/**
 * A trace of any system as a sequence diagram, independent of how it is drawn: a lifeline for each
 * actor (the model values its steps' parameters name first: pods, replicas), one for steps no one
 * takes (`environment`: timers, expiries, the operator), and one for the spec's state; one message per
 * step from its actor to the state, labelled with the action and what it changed; a note where an
 * invariant starts to fail. `mermaid.ts` writes it as Mermaid text, `svg.ts` draws it as inline SVG.
 */
import type { TraceLike } from '../core/trace-format.js';
import { asTrace } from './load.js';
import { refusal, refusedLabel, stepTable } from './steps.js';

export interface Participant {
  readonly id: string;
  readonly label: string;
}

export type SequenceItem =
  | { readonly kind: 'message'; readonly step: number; readonly from: string; readonly to: string; readonly label: string; readonly refused?: true }
  | { readonly kind: 'note'; readonly step: number; readonly over: readonly [string, string]; readonly text: string; readonly alarm: boolean };

export interface SequenceDiagram {
  readonly title: string;
  readonly participants: readonly Participant[];
  readonly items: readonly SequenceItem[];
}

export const ENV = 'env';
export const STATE = 'state';

/** A message label is cut here (the step table has the full values). */
const MAX_LABEL = 96;

export interface DiagramOptions {
  /** Draw refused attempts as refused (the reports); the plain drawing shows every step alike. */
  readonly refusals?: boolean;
}

const cut = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s);
/** Mermaid and SVG ids: letters, digits, underscores. */
const lifeline = (actor: string) => `a_${actor.replace(/[^A-Za-z0-9_]/g, '_')}`;

export function sequenceDiagram(any: TraceLike, opts: DiagramOptions = {}): SequenceDiagram {
  const trace = asTrace(any);
  const table = stepTable(trace);
  const actors = [
    ...new Set(
      table.rows
        .slice(1)
        .map((r) => r.pod)
        .filter((a) => a !== ''),
    ),
  ];
  const env = table.rows.slice(1).some((r) => r.pod === '');
  const participants: Participant[] = [...(env ? [{ id: ENV, label: 'environment' }] : []), ...actors.map((a) => ({ id: lifeline(a), label: a })), { id: STATE, label: `${trace.system} state` }];
  const first = participants[0]!.id;
  const items: SequenceItem[] = [];
  trace.steps.forEach((step, i) => {
    const row = table.rows[i]!;
    if (i === 0) items.push({ kind: 'note', step: 0, over: [first, STATE], text: step.action, alarm: false });
    else {
      const what = table.columns.filter((c) => row.changed.has(c)).map((c) => `${c} := ${row.cells[c]}`);
      const label = cut(`${row.action}: ${what.length > 0 ? what.join(', ') : '(no change)'}`);
      const m: SequenceItem = { kind: 'message', step: i, from: row.pod ? lifeline(row.pod) : ENV, to: STATE, label };
      // A refused attempt moved nothing: drawn as refused, never as a step.
      items.push(opts.refusals && refusal(step) !== null ? { ...m, label: cut(refusedLabel(step)), refused: true } : m);
    }
    if (row.newlyBroken.length > 0) items.push({ kind: 'note', step: i, over: [STATE, STATE], text: `✗ ${row.newlyBroken.join(', ')}`, alarm: true });
  });
  const title = `${trace.system} ${trace.source} trace${trace.mutant ? ` under ${trace.mutant}` : ''}${trace.violated ? ` violating ${trace.violated}` : ''}`;
  return { title, participants, items };
}
