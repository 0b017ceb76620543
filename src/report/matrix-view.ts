/**
 * The Mutation matrix section: mutant × layer verdicts (each cell linked to its trace, which is
 * collapsed further down and opens when followed), the mutation score per layer and overall, and
 * why the cells that are not kills are not.
 */
import type { Layer } from '../core/manifest.js';
import { cellText } from './matrix.js';
import { mutationScore, scoreText } from './score.js';
import type { MatrixRow, MutationScore, ScoreFigure, VerifyReport } from './verify-doc.js';
import { statusTone, traceAnchor, type Block, type Cell, type Section } from './view-types.js';

function matrixCell(row: MatrixRow, layer: Layer, embedded: ReadonlySet<string>, link: (p: string) => string): Cell {
  const cell = row.cells[layer];
  const title = [
    cell.reason,
    cell.alsoBroken && cell.alsoBroken.length > 0 ? `also broken: ${cell.alsoBroken.join(', ')}` : '',
    cell.traceLength !== undefined ? `${cell.traceLength} steps` : '',
    cell.seed !== undefined ? `seed ${cell.seed}` : '',
    cell.path ? `path ${cell.path}` : '',
    cell.replay ? `replay: ${cell.replay}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const href = cell.tracePath ? (embedded.has(cell.tracePath) ? `#${traceAnchor(cell.tracePath)}` : link(cell.tracePath)) : undefined;
  return { text: cellText(cell), tone: statusTone(cell.verdict), ...(href ? { href } : {}), ...(title ? { title } : {}) };
}

export function matrixSection(r: VerifyReport, embedded: ReadonlySet<string>, link: (p: string) => string): Section {
  const m = r.mutationMatrix;
  const table: Block = {
    kind: 'table',
    id: 'mutation-matrix-table',
    // Wide on a small screen: it scrolls inside its own box, the mutant column stays in view.
    scroll: true,
    columns: ['mutant', 'removes', 'expected', ...m.layers],
    rows: m.rows.map((row) => [{ text: row.id, title: row.description }, { text: row.target }, { text: row.expectedInvariant }, ...m.layers.map((l) => matrixCell(row, l, embedded, link))]),
  };
  // The same reason repeats for every mutant of a layer that did not run: say it once, naming them.
  const groups = new Map<string, string[]>();
  for (const row of m.rows)
    for (const l of m.layers) {
      const c = row.cells[l];
      if (c.verdict === 'killed' || c.verdict === 'n/a' || !c.reason) continue;
      const key = `${l}: ${cellText(c)} — ${c.reason}`;
      groups.set(key, [...(groups.get(key) ?? []), row.id]);
    }
  const unique = [...groups.entries()].map(([key, ids]) => `${ids.join(', ')} × ${key}`);
  return {
    id: 'mutation-matrix',
    title: 'Mutation matrix',
    blocks: [
      { kind: 'p', text: 'Each mutant removes one named guard or effect; a layer kills it when its ordinary checker reports the expected invariant. Cells link to the counterexample trace.' },
      table,
      ...scoreBlocks(m.score ?? mutationScore(m)),
      ...(m.rows.some((row) => m.layers.some((l) => row.cells[l].from === 'evidence'))
        ? [
            {
              kind: 'p',
              text: '(evidence): TLC did not run here; the verdict is the committed TLC evidence, whose spec and config hashes the evidence stage checked in this run.',
              tone: 'muted',
            } as Block,
          ]
        : []),
      ...(unique.length > 0 ? [{ kind: 'p', text: 'Why cells are not killed:' } as Block, { kind: 'list', items: unique } as Block] : []),
    ],
  };
}

/** The score table: per layer and overall, with the cells that did not run beside it. */
export function scoreBlocks(s: MutationScore): Block[] {
  const row = (name: string, f: ScoreFigure): Cell[] => [
    { text: name },
    {
      text: f.percent === null ? '—' : `${f.percent.toFixed(1)} %`,
      tone: f.percent === 100 && f.notRun === 0 ? 'ok' : f.notRun > 0 && f.killed + f.notRun + f.equivalent === f.total ? 'warn' : 'bad',
    },
    { text: `${f.killed} / ${f.total - f.equivalent}` },
    { text: String(f.equivalent) },
    { text: f.notRun > 0 ? `${f.notRun} not run` : '0', ...(f.notRun > 0 ? { tone: 'warn' as const } : {}) },
  ];
  return [
    { kind: 'heading', text: 'Mutation score' },
    { kind: 'p', text: `killed / (mutants − equivalent). A cell that did not run is never a kill: it lowers the score and is counted beside it. Overall: ${scoreText(s.overall)}.` },
    {
      kind: 'table',
      id: 'mutation-score',
      columns: ['layer', 'score', 'killed / counted', 'equivalent', 'not run'],
      rows: [...Object.entries(s.layers).map(([layer, f]) => row(layer, f!)), row('overall', s.overall)],
    },
  ];
}
