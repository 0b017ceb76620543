import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { BASE_CONFIG_PATH, readCfg } from '../../src/systems/fencing/tlc/config.js';
import { configWithConstants, formatGrowthTable, gridCells } from '../../src/seam/tlc/growth.js';

describe('growth table', () => {
  it('changes only the named constants of the base config', () => {
    const base = readFileSync(join(projectRoot, BASE_CONFIG_PATH), 'utf8');
    const cfg = readCfg(configWithConstants(base, { Pods: '{p1, p2, p3, p4, p5}', MaxGen: '6' }, BASE_CONFIG_PATH));
    expect(cfg.bounds).toEqual({ pods: ['p1', 'p2', 'p3', 'p4', 'p5'], maxGen: 6 });
    expect(cfg.invariants).toEqual(readCfg(base).invariants);
    expect(cfg.dropped).toEqual([]);
    expect(() => configWithConstants(base, { Nope: '1' }, BASE_CONFIG_PATH)).toThrow(/sets no constant Nope/);
  });

  it('walks the grid with the first constant slowest', () => {
    expect(gridCells({ Pods: ['2', '3'], MaxGen: ['3', '4'] })).toEqual([
      { Pods: '2', MaxGen: '3' },
      { Pods: '2', MaxGen: '4' },
      { Pods: '3', MaxGen: '3' },
      { Pods: '3', MaxGen: '4' },
    ]);
  });

  it('marks a run that hit the cap as "not finished", never as a count', () => {
    const t = formatGrowthTable(
      [
        { at: { Pods: '2', MaxGen: '3' }, outcome: 'ok', generated: 3239, distinct: 994, depth: 21, durationMs: 800 },
        { at: { Pods: '2', MaxGen: '4' }, outcome: 'timeout' },
      ],
      240_000,
    );
    expect(t.split('\n')).toEqual(['| Pods \\ MaxGen | 3 | 4 |', '|---|---|---|', '| 2 | 994 (3239), d21, <1 s | not finished in 4 min |']);
  });
});
