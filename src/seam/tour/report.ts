/** A tour's figures as text lines and a per-action table (the one renderer: renderTable). */
import { renderTable } from '../../core/table.js';
import { coveragePercent } from '../../core/percent.js';
import type { TourResult } from './result.js';
import { shardLabel } from './shard.js';
import type { TourModel } from './system.js';
import { EVERY_INVARIANT } from './entry.js';

const pct = (a: number, b: number) => coveragePercent(a, b).toFixed(1);

export function coverageLines(r: TourResult<unknown, unknown, unknown>): string[] {
  const m = r.model;
  const lines = [
    `  states       ${String(r.covered.states).padStart(6)} / ${m.states} (${pct(r.covered.states, m.states)} %)${r.states > r.covered.states ? `, and ${r.states - r.covered.states} the model never reaches` : ''}`,
    `  transitions  ${String(r.covered.transitions).padStart(6)} / ${m.transitions} (${pct(r.covered.transitions, m.transitions)} %) labelled transitions of the model (${r.transitions} attempts that made one)`,
    `  refused      ${String(r.covered.refused).padStart(6)} / ${m.refused} (${pct(r.covered.refused, m.refused)} %) attempts the model refuses`,
  ];
  if (m.unchanged > 0 || r.unchanged > 0) lines.push(`  unchanged    ${String(r.unchanged).padStart(6)} / ${m.unchanged} ${r.words.unchanged ?? 'accepted attempts that change no model variable'}`);
  if (r.stateChecks > 0) lines.push(`  state checks ${String(r.stateChecks).padStart(6)} states${r.words.stateCheck ? `: ${r.words.stateCheck}` : ''}`);
  const perS = Math.round(r.attempts / Math.max(r.durationMs / 1000, 1e-3));
  lines.push(
    `  ${r.attempts} attempts at depth ≤ ${r.depth} in ${(r.durationMs / 1000).toFixed(1)} s (${perS} attempts/s; ${r.instances} fresh instances by ${r.reach === 'inject' ? 'injection' : `replay, ${r.executed} attempts executed`})`,
  );
  return lines;
}

export function actionTable(r: TourResult<unknown, unknown, unknown>): string {
  const rows = Object.entries(r.byAction)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, c]) => [name, c.modelTransitions ? `${c.transitions}/${c.modelTransitions}` : '', c.modelRefused ? `${c.refused}/${c.modelRefused}` : '']);
  return renderTable(['action or attempt', 'transitions', 'refused attempts'], rows);
}

function what(r: TourResult<unknown, unknown, unknown>): string {
  const checks = r.checks.kind === 'conformance' ? 'conformance' : r.checks.invariant === EVERY_INVARIANT ? 'every invariant' : `${r.checks.invariant} alone`;
  return `${r.boundsLabel}, ${checks}${r.shard.count > 1 ? `, shard ${shardLabel(r.shard)}` : ''}`;
}

export function headline(r: TourResult<unknown, unknown, unknown>): string {
  if (r.failure) return `${what(r)}: ${r.failure.check} after ${r.failure.path.length - 1} steps${r.failure.attempt ? ` at ${r.failure.attempt}` : ''}`;
  const part = r.shard.count > 1 ? "the shard's part of the real graph is the model's" : "the real graph is the model's";
  if (r.equalToModel) return `${what(r)}: ${part} (${r.covered.states} states, ${r.covered.transitions} transitions, ${r.covered.refused} refused attempts)`;
  return `${what(r)}: no check failed; the real graph differs from the model's (${r.states} states)`;
}

/** The path to a failure, one line a step. */
export function pathLines<S, A, D>(r: TourResult<S, A, D>, model: Pick<TourModel<S, A, D>, 'attemptLabel' | 'view'>): string[] {
  if (!r.failure) return [];
  return r.failure.path.map((p, i) => {
    if (p.attempt === null || p.decision === null) return `  ${String(i).padStart(2)}. Init`;
    const v = model.view(p.attempt, p.decision);
    return `  ${String(i).padStart(2)}. ${model.attemptLabel(p.attempt).padEnd(16)} ${v.kind === 'transition' ? '' : `(${v.label}) `}${p.note ?? ''}`;
  });
}
