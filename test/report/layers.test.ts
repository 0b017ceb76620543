/**
 * The report layer and the helpers this work moved to the ground layer import only downward and
 * form no cycle (the project's dependency rules, .dependency-cruiser.cjs, run by dependency-cruiser
 * on these modules), and src/report/ names no system: it imports nothing of a system's folders or
 * of the registry, and no string in it is a system's name.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';

/** The modules this checks: the report layer, and what it and its producers share in the lower layers. */
const OWN = [
  'src/report/',
  'src/core/format.ts',
  'src/core/mutation-score.ts',
  'src/core/junit-xml.ts',
  'src/core/report-details.ts',
  'src/core/details-blocks.ts',
  'src/core/percent.ts',
  'src/core/progress.ts',
  'src/luacheck/format.ts',
  'src/mutants/report-table.ts',
  'src/tlc/evidence-block.ts',
  'src/systems/fencing/conform-report.ts',
  'src/systems/fencing/cluster-matrix/report.ts',
  'src/systems/limiter/report.ts',
];
const owned = (path: string) => OWN.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));

interface Cruise {
  readonly summary: { readonly violations: readonly { readonly from: string; readonly to: string; readonly rule: { readonly name: string } }[] };
  readonly modules: readonly { readonly source: string; readonly dependencies: readonly { readonly resolved: string }[] }[];
}

function cruise(): Cruise {
  const bin = join(projectRoot, 'node_modules/.bin/depcruise');
  // Exit 1 when there are violations (some outside these modules): the JSON is on stdout either way.
  try {
    return JSON.parse(execFileSync(bin, [...OWN, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: projectRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as Cruise;
  } catch (err) {
    const out = (err as { stdout?: string }).stdout;
    if (!out) throw err;
    return JSON.parse(out) as Cruise;
  }
}

describe('the report layer', () => {
  const result = cruise();

  it('imports only downward and has no cycle (dependency-cruiser, the project rules)', () => {
    const mine = result.summary.violations.filter((v) => owned(v.from)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(mine).toEqual([]);
  });

  it('imports nothing of a system (its folders) nor the registry', () => {
    const systemPath = /^(src\/systems|models|mutants|properties)\/|^src\/registry\//;
    const imports = result.modules.filter((m) => m.source.startsWith('src/report/')).flatMap((m) => m.dependencies.filter((d) => systemPath.test(d.resolved)).map((d) => `${m.source} → ${d.resolved}`));
    expect(imports).toEqual([]);
  });

  it("names no system in its code", () => {
    const names = ['fencing', 'pause', 'failover', 'limiter'];
    const dir = join(projectRoot, 'src/report');
    const named = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').map((line, i) => ({ at: `src/report/${f}:${i + 1}`, line })))
      .filter(({ line }) => names.some((n) => new RegExp(`['"\`]${n}['"\`]`).test(line)))
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(named).toEqual([]);
  });
});
