/**
 * The mutation score: killed / (mutants − equivalent), per layer and overall. Only `killed` counts
 * as killed; a cell that did not run (not run, not selected, missing) is never a kill and is
 * reported beside the score ("3 not run") so a partial run cannot look complete. n/a cells (no
 * patch for the layer) are not mutants of that layer. Used by `fencecheck mutants` (its table) and
 * by the verify reports (the matrix's score).
 */
import type { Layer } from './manifest.js';
import type { Verdict } from './verdict.js';

/** A mutant × layer cell's verdict: a layer's own, or why there is none. */
export type CellVerdict = Verdict | 'n/a' | 'not-selected' | 'missing';

export interface ScoreFigure {
  /** Cells of this layer that are mutants (every verdict but n/a). */
  readonly total: number;
  readonly killed: number;
  readonly equivalent: number;
  /** Not run, not selected or missing: in `total`, never in `killed`. */
  readonly notRun: number;
  /** killed / (total − equivalent), one decimal, rounded down (100 only when every one was killed); null when nothing counts. */
  readonly percent: number | null;
}

/** killed / (mutants − equivalent) per layer and overall. */
export interface MutationScore {
  readonly layers: Readonly<Partial<Record<Layer, ScoreFigure>>>;
  readonly overall: ScoreFigure;
}

const NOT_RUN: ReadonlySet<CellVerdict> = new Set(['not-run', 'not-selected', 'missing']);

export function scoreOf(cells: readonly { readonly verdict: CellVerdict }[]): ScoreFigure {
  const counted = cells.filter((c) => c.verdict !== 'n/a');
  const killed = counted.filter((c) => c.verdict === 'killed').length;
  const equivalent = counted.filter((c) => c.verdict === 'equivalent').length;
  const notRun = counted.filter((c) => NOT_RUN.has(c.verdict)).length;
  const denominator = counted.length - equivalent;
  return { total: counted.length, killed, equivalent, notRun, percent: denominator > 0 ? Math.floor((1000 * killed) / denominator) / 10 : null };
}

/** One figure per layer present (in `order`), and overall. */
export function layerScore(items: readonly { readonly layer: Layer; readonly verdict: CellVerdict }[], order: readonly Layer[]): MutationScore {
  const layers: Partial<Record<Layer, ScoreFigure>> = {};
  for (const layer of order) {
    const figure = scoreOf(items.filter((i) => i.layer === layer));
    if (figure.total > 0) layers[layer] = figure;
  }
  return { layers, overall: scoreOf(items) };
}

/** `87.5 % (7/8 killed, 1 equivalent, 3 not run)`: the not-run and equivalent cells are always named. */
export function scoreText(f: ScoreFigure): string {
  const extra = [f.equivalent > 0 ? `${f.equivalent} equivalent` : '', f.notRun > 0 ? `${f.notRun} not run` : ''].filter(Boolean);
  const head = f.percent === null ? 'no score' : `${f.percent.toFixed(1)} %`;
  return `${head} (${f.killed}/${f.total - f.equivalent} killed${extra.length > 0 ? `, ${extra.join(', ')}` : ''})`;
}

/** One line per layer, then the overall score. */
export function scoreLines(s: MutationScore): string[] {
  return [...Object.entries(s.layers).map(([layer, f]) => `mutation score ${layer}: ${scoreText(f!)}`), `mutation score overall: ${scoreText(s.overall)}`];
}
