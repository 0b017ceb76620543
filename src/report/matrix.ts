import { LAYERS, type Layer, type MutantManifest } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';
import { replayCommand } from './replay.js';
import { mutationScore } from './score.js';
import type { MatrixCell, MatrixRow, MutationMatrix, StageOutcome } from './verify-doc.js';

/**
 * The mutant × layer matrix: for every manifest mutant and every layer, the verdict of the stage
 * that runs that layer — or why there is none (n/a: the manifest has no patch for this layer;
 * not-selected; not-run with the stage's reason; missing: the stage ran but reported nothing).
 */
export function mutationMatrix(
  manifest: MutantManifest,
  outcomes: readonly StageOutcome[],
  stageOfLayer: Readonly<Record<Layer, string>>,
  /** Where a layer's verdicts come from when its own stage has none (tla → the committed evidence). */
  fallbackOfLayer: Partial<Readonly<Record<Layer, string>>> = {},
): MutationMatrix {
  const byStage = new Map(outcomes.map((o) => [o.stage, o]));
  const rows: MatrixRow[] = manifest.mutants.map((m) => {
    const cells = {} as Record<Layer, MatrixCell>;
    for (const layer of LAYERS) {
      const stage = stageOfLayer[layer];
      if (!m.layers[layer]) {
        cells[layer] = { verdict: 'n/a', stage };
        continue;
      }
      const outcome = byStage.get(stage);
      const result = outcome?.report?.mutants?.find((r) => r.id === m.id && r.layer === layer);
      const fallback = fallbackOfLayer[layer];
      const recorded = fallback ? byStage.get(fallback)?.report?.mutants?.find((r) => r.id === m.id && r.layer === layer) : undefined;
      const why = outcome ? `${stage} ${outcome.status}${outcome.reason ? `: ${outcome.reason}` : ''}` : `${stage} not selected`;
      if (result) cells[layer] = cellOf(result, stage);
      else if (recorded && fallback && outcome?.status !== 'passed' && outcome?.status !== 'failed')
        cells[layer] = { ...cellOf(recorded, fallback), from: 'evidence', reason: `${why}; verdict from the committed evidence` };
      else if (!outcome) cells[layer] = { verdict: 'not-selected', stage, reason: `stage ${stage} not selected` };
      else if (outcome.status === 'not-run' || outcome.status === 'error') cells[layer] = { verdict: 'not-run', stage, reason: outcome.reason ?? `stage ${stage} ${outcome.status}` };
      else cells[layer] = { verdict: 'missing', stage, reason: `stage ${stage} ${outcome.status} but reported no result for ${m.id}` };
      const replay = replayCommand(m.id, layer, cells[layer], m.system);
      if (replay !== undefined) cells[layer] = { ...cells[layer], replay };
    }
    return { id: m.id, system: m.system, target: m.target, description: m.description, expectedInvariant: m.expectedInvariant, cells };
  });
  const layers = [...LAYERS];
  return { layers, rows, score: mutationScore({ layers, rows }) };
}

const CELL_FIELDS = ['violated', 'alsoBroken', 'traceLength', 'tracePath', 'seed', 'path', 'durationMs', 'replay', 'reason'] as const;

function cellOf(r: MutantResult, stage: string): MatrixCell {
  const cell: Record<string, unknown> = { verdict: r.verdict, stage };
  for (const k of CELL_FIELDS) if (r[k] !== undefined) cell[k] = r[k];
  return cell as unknown as MatrixCell;
}

/** Cells that make verify fail: a mutant not killed, or a stage that ran but left a mutant out. */
export function failingCells(matrix: MutationMatrix): { id: string; layer: Layer; cell: MatrixCell }[] {
  const bad: { id: string; layer: Layer; cell: MatrixCell }[] = [];
  for (const row of matrix.rows)
    for (const layer of matrix.layers) {
      const cell = row.cells[layer];
      if (['survived', 'wrong-invariant', 'equivalent', 'invalid', 'timeout', 'missing'].includes(cell.verdict)) bad.push({ id: row.id, layer, cell });
    }
  return bad;
}

/** A mutant × layer cell that did not run, and whether --allow-not-run covers it. */
export interface NotRunCell {
  readonly id: string;
  readonly layer: Layer;
  readonly cell: MatrixCell;
  /** The cell's stage is named by --allow-not-run (and did not crash: an `error` stage is never waived). */
  readonly allowed: boolean;
}

/**
 * Cells whose own stage ran but reported the mutant `not-run` (Valkey or TLC lost mid-run): each makes
 * verify fail unless the stage is named by --allow-not-run. Cells that are not run because their whole
 * stage did not run or crashed are left out: the stage's own verdict line covers them.
 */
export function notRunCells(matrix: MutationMatrix, outcomes: readonly StageOutcome[]): NotRunCell[] {
  const byStage = new Map(outcomes.map((o) => [o.stage, o]));
  const cells: NotRunCell[] = [];
  for (const row of matrix.rows)
    for (const layer of matrix.layers) {
      const cell = row.cells[layer];
      if (cell.verdict !== 'not-run') continue;
      const outcome = byStage.get(cell.stage);
      const reported = outcome?.report?.mutants?.some((r) => r.id === row.id && r.layer === layer && r.verdict === 'not-run') ?? false;
      if (!reported) continue;
      cells.push({ id: row.id, layer, cell, allowed: outcome!.allowedNotRun && outcome!.status !== 'error' });
    }
  return cells;
}

/** A short cell text: `killed: Inv_SingleAuthority`, `survived`, `not run`. */
export function cellText(cell: MatrixCell): string {
  const text = verdictText(cell);
  return cell.from === 'evidence' ? `${text} (evidence)` : text;
}

function verdictText(cell: MatrixCell): string {
  switch (cell.verdict) {
    case 'killed':
      return `killed: ${cell.violated ?? '?'}`;
    case 'wrong-invariant':
      return `wrong invariant: ${cell.violated ?? '?'}`;
    case 'not-run':
      return 'not run';
    case 'not-selected':
      return 'not selected';
    case 'n/a':
      return '—';
    default:
      return cell.verdict;
  }
}
