/**
 * The growth of a system's state space: its base config at other values of its constants, one TLC run
 * per cell of the grid (each capped), the counts TLC reports. The config is the base config with only
 * the named constants' lines replaced (same invariants, no symmetry); a system turns a short value
 * into TLA+ (`Pods = 3` → `{p1, p2, p3}`) through `cfgValue`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../core/project-root.js';
import type { TlcTools } from '../../tlc/locate.js';
import { runTlc } from '../../tlc/run.js';
import type { AnySystem } from '../package.js';

export interface GrowthCell {
  /** The constants of this cell, as given. */
  readonly at: Readonly<Record<string, string>>;
  readonly outcome: string;
  readonly generated?: number;
  readonly distinct?: number;
  readonly depth?: number;
  readonly durationMs?: number;
}

/** The config text with each `NAME = value` of the constants replaced; throws when a name is not in it. */
export function configWithConstants(baseCfg: string, values: Readonly<Record<string, string>>, where: string): string {
  let out = baseCfg;
  for (const [name, value] of Object.entries(values)) {
    const re = new RegExp(`^(\\s*${name}\\s*(?:=|<-)\\s*)(\\{[^}]*\\}|[^\\n]*?)(\\s*(?:\\\\\\*.*)?)$`, 'm');
    if (!re.test(out)) throw new RangeError(`${where} sets no constant ${name}`);
    out = out.replace(re, (_m, k: string, _v: string, rest: string) => `${k}${value}${rest}`);
  }
  return out;
}

/** Every combination of the grid's values, in order (the first constant varies slowest). */
export function gridCells(grid: Readonly<Record<string, readonly string[]>>): Record<string, string>[] {
  let cells: Record<string, string>[] = [{}];
  for (const [name, values] of Object.entries(grid)) cells = cells.flatMap((c) => values.map((v) => ({ ...c, [name]: v })));
  return cells;
}

export async function measureGrowth(
  sys: AnySystem,
  tools: TlcTools,
  grid: Readonly<Record<string, readonly string[]>>,
  timeoutMs: number,
  onCell: (c: GrowthCell) => void = () => {},
  root = projectRoot,
): Promise<GrowthCell[]> {
  const base = readFileSync(join(root, sys.config), 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'fencecheck-growth-'));
  const cells: GrowthCell[] = [];
  try {
    for (const [i, at] of gridCells(grid).entries()) {
      const tla = Object.fromEntries(Object.entries(at).map(([k, v]) => [k, sys.cfgValue?.(k, v) ?? v]));
      const cfg = join(dir, `Growth_${i}.cfg`);
      writeFileSync(cfg, configWithConstants(base, tla, sys.config));
      const run = await runTlc({ spec: join(root, sys.spec), config: cfg, tools, timeoutMs });
      const r = run.kind === 'completed' ? run.result : undefined;
      const cell: GrowthCell = {
        at,
        outcome: run.kind === 'timeout' ? 'timeout' : r!.outcome,
        ...(r?.generated !== undefined && { generated: r.generated }),
        ...(r?.distinct !== undefined && { distinct: r.distinct }),
        ...(r?.depth !== undefined && { depth: r.depth }),
        ...(r?.durationMs !== undefined && { durationMs: r.durationMs }),
      };
      onCell(cell);
      cells.push(cell);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cells;
}

/** Markdown: rows the first constant, columns the second (one constant: one row); "not finished in N min" at the cap. */
export function formatGrowthTable(cells: readonly GrowthCell[], timeoutMs: number): string {
  const names = Object.keys(cells[0]?.at ?? {});
  const [rowName, colName] = [names[0] ?? '', names[1]];
  const rows = [...new Set(cells.map((c) => c.at[rowName]!))];
  const cols = colName ? [...new Set(cells.map((c) => c.at[colName]!))] : [''];
  const cap = timeoutMs >= 60_000 ? `${Math.round((timeoutMs / 60_000) * 10) / 10} min` : `${Math.round(timeoutMs / 100) / 10} s`;
  const text = (c: GrowthCell | undefined): string => {
    if (!c) return '–';
    if (c.outcome === 'timeout') return `not finished in ${cap}`;
    if (c.outcome !== 'ok') return c.outcome;
    const s = (c.durationMs ?? 0) / 1000;
    return `${c.distinct} (${c.generated}), d${c.depth}, ${s < 1 ? '<1' : s.toFixed(0)} s`;
  };
  const at = (r: string, k: string) => cells.find((c) => c.at[rowName] === r && (!colName || c.at[colName] === k));
  return [
    `| ${rowName}${colName ? ` \\ ${colName}` : ''} | ${cols.join(' | ')} |`,
    `|---|${cols.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r} | ${cols.map((k) => text(at(r, k))).join(' | ')} |`),
  ].join('\n');
}
