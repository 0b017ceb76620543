import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { podsOf } from '../state.js';
import { projectRoot } from '../../../core/project-root.js';
import { ownedTempDir, removeTempDir } from '../../../core/temp-dir.js';
import { BASE_CONFIG_PATH, SPEC_PATH } from './config.js';
import type { TlcTools } from '../../../tlc/locate.js';
import { runTlc } from '../../../tlc/run.js';

/** One cell of the growth table: the base config at other bounds. */
export interface GrowthCell {
  readonly pods: number;
  readonly maxGen: number;
  readonly outcome: string;
  readonly generated?: number;
  readonly distinct?: number;
  readonly depth?: number;
  readonly durationMs?: number;
}

/** The base config with only Pods and MaxGen replaced (same invariants, no symmetry). */
export function configWithBounds(baseCfg: string, pods: number, maxGen: number): string {
  const podSet = `{${podsOf(pods).join(', ')}}`;
  const out = baseCfg.replace(/^(\s*Pods\s*=\s*)\{[^}]*\}/m, `$1${podSet}`).replace(/^(\s*MaxGen\s*=\s*)\d+/m, (_m, k: string) => `${k}${maxGen}`);
  if (!out.includes(podSet)) throw new Error(`${BASE_CONFIG_PATH}: cannot set Pods`);
  return out;
}

/** Runs the base config for every (pods, maxGen) pair, each capped at timeoutMs. */
export async function measureGrowth(
  tools: TlcTools,
  podCounts: readonly number[],
  maxGens: readonly number[],
  timeoutMs: number,
  onCell: (c: GrowthCell) => void = () => {},
  root = projectRoot,
): Promise<GrowthCell[]> {
  const base = readFileSync(join(root, BASE_CONFIG_PATH), 'utf8');
  const dir = ownedTempDir('growth');
  const cells: GrowthCell[] = [];
  try {
    for (const pods of podCounts) {
      for (const maxGen of maxGens) {
        const cfg = join(dir, `Growth_${pods}_${maxGen}.cfg`);
        writeFileSync(cfg, configWithBounds(base, pods, maxGen));
        const run = await runTlc({ spec: join(root, SPEC_PATH), config: cfg, tools, timeoutMs });
        const r = run.kind === 'completed' ? run.result : undefined;
        const cell: GrowthCell = {
          pods,
          maxGen,
          outcome: run.kind === 'timeout' ? 'timeout' : r!.outcome,
          ...(r?.generated !== undefined && { generated: r.generated }),
          ...(r?.distinct !== undefined && { distinct: r.distinct }),
          ...(r?.depth !== undefined && { depth: r.depth }),
          ...(r?.durationMs !== undefined && { durationMs: r.durationMs }),
        };
        onCell(cell);
        cells.push(cell);
      }
    }
  } finally {
    removeTempDir(dir);
  }
  return cells;
}

/** Markdown: rows Pods, columns MaxGen; a cell that hit the cap says "not finished in N min". */
export function formatGrowthTable(cells: readonly GrowthCell[], timeoutMs: number): string {
  const pods = [...new Set(cells.map((c) => c.pods))];
  const gens = [...new Set(cells.map((c) => c.maxGen))];
  const cap = timeoutMs >= 60_000 ? `${Math.round((timeoutMs / 60_000) * 10) / 10} min` : `${Math.round(timeoutMs / 100) / 10} s`;
  const text = (c: GrowthCell | undefined): string => {
    if (!c) return '–';
    if (c.outcome === 'timeout') return `not finished in ${cap}`;
    if (c.outcome !== 'ok') return `${c.outcome}`;
    const s = (c.durationMs ?? 0) / 1000;
    return `${c.distinct} (${c.generated}), d${c.depth}, ${s < 1 ? '<1' : s.toFixed(0)} s`;
  };
  return [
    `| Pods \\ MaxGen | ${gens.join(' | ')} |`,
    `|---|${gens.map(() => '---').join('|')}|`,
    ...pods.map((p) => `| ${p} | ${gens.map((g) => text(cells.find((c) => c.pods === p && c.maxGen === g))).join(' | ')} |`),
  ].join('\n');
}
