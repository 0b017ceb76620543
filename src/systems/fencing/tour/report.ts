/** The tour's figures as text lines and a per-action table (the one renderer: renderTable). */
import { renderTable } from '../../../core/table.js';
import { boundsLabel } from '../model/bounds.js';
import { attemptLabel } from './attempts.js';
import { coveragePercent } from '../../../core/percent.js';
import type { TourResult } from './tour.js';

const pct = (a: number, b: number) => coveragePercent(a, b).toFixed(1);

export function coverageLines(r: TourResult): string[] {
  const m = r.model;
  return [
    `  states       ${String(r.covered.states).padStart(6)} / ${m.states} (${pct(r.covered.states, m.states)} %)${r.states > r.covered.states ? `, and ${r.states - r.covered.states} the model never reaches` : ''}`,
    `  transitions  ${String(r.covered.transitions).padStart(6)} / ${m.transitions} (${pct(r.covered.transitions, m.transitions)} %) labelled transitions of the model (${r.transitions} attempts that made one)`,
    `  refused      ${String(r.covered.refused).padStart(6)} / ${m.refused} (${pct(r.covered.refused, m.refused)} %) attempts the model refuses`,
    `  renewals     ${String(r.renewed).padStart(6)} / ${m.renewed} (TTL reset, no state change)`,
    `  read side    ${String(r.readSideChecks).padStart(6)} states (lookup, known_generation, validate_fenced_header per version)`,
    `  ${r.attempts} attempts at depth ≤ ${r.depth} in ${(r.durationMs / 1000).toFixed(1)} s (${Math.round(r.attempts / (r.durationMs / 1000))} attempts/s)`,
  ];
}

export function actionTable(r: TourResult): string {
  const rows = Object.entries(r.byAction)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, c]) => [name, c.modelTransitions ? `${c.transitions}/${c.modelTransitions}` : '', c.modelRefused ? `${c.refused}/${c.modelRefused}` : '']);
  return renderTable(['action or attempt', 'transitions', 'refused attempts'], rows);
}

export function headline(r: TourResult): string {
  const what = r.checks.kind === 'conformance' ? 'conformance' : `${r.checks.invariant} alone`;
  if (r.failure) return `${boundsLabel(r.bounds)}, ${what}: ${r.failure.check} after ${r.failure.path.length - 1} steps${r.failure.attempt ? ` at ${r.failure.attempt}` : ''}`;
  if (r.equalToModel) return `${boundsLabel(r.bounds)}, ${what}: the real graph is the model's (${r.covered.states} states, ${r.covered.transitions} transitions, ${r.covered.refused} refused attempts)`;
  return `${boundsLabel(r.bounds)}, ${what}: no check failed; the real graph differs from the model's (${r.states} states)`;
}

/** The path to a failure, one line a step. */
export function pathLines(r: TourResult): string[] {
  if (!r.failure) return [];
  return r.failure.path.map((p, i) => `  ${String(i).padStart(2)}. ${p.attempt ? `${attemptLabel(p.attempt).padEnd(16)} ${p.decision?.kind === 'transition' ? '' : `(${p.decision?.kind}) `}${p.note ?? ''}` : 'Init'}`);
}
