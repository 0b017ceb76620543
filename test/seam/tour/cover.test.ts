/** The path cover for replayed tours: every (state, attempt) of the shard checked on exactly one run, every run from Init. */
import { describe, expect, it } from 'vitest';
import { pathCover } from '../../../src/seam/tour/cover.js';
import { modelGraph } from '../../../src/seam/tour/model-graph.js';
import { inShard, WHOLE, type Shard } from '../../../src/seam/tour/shard.js';
import { lockModel } from './toy.js';

const g = modelGraph(lockModel);

function checkCover(shard: Shard) {
  const runs = pathCover(g, shard, true);
  const checked = new Map<string, number>();
  const stateChecks = new Map<number, number>();
  for (const run of runs) {
    let cur = 0; // every run starts in the initial state and follows the model's edges
    for (const item of run.items) {
      expect(item.state).toBe(cur);
      if (item.kind === 'state') {
        stateChecks.set(item.state, (stateChecks.get(item.state) ?? 0) + 1);
        continue;
      }
      if (item.checked) checked.set(`${item.state}/${item.attempt}`, (checked.get(`${item.state}/${item.attempt}`) ?? 0) + 1);
      cur = g.edges[item.state]![item.attempt]!.next;
    }
  }
  const mine = g.keys.map((k, i) => [k, i] as const).filter(([k]) => inShard(k, shard));
  const want = mine.flatMap(([, i]) => g.edges[i]!.map((_, j) => `${i}/${j}`)).sort();
  expect([...checked.keys()].sort()).toEqual(want);
  expect([...checked.values()].every((n) => n === 1)).toBe(true);
  expect([...stateChecks.keys()].sort((a, b) => a - b)).toEqual(mine.map(([, i]) => i));
  expect([...stateChecks.values()].every((n) => n === 1)).toBe(true);
  return runs;
}

describe('pathCover', () => {
  it('covers every (state, attempt) once; refusals and state checks ride on the run that arrives first', () => {
    const runs = checkCover(WHOLE);
    expect(runs.length).toBeLessThan(g.edges.flat().length / 4);
    expect(pathCover(g, WHOLE, true)).toEqual(runs); // deterministic
  });

  it('a shard covers exactly its own states, walking through others where it must', () => {
    for (let i = 1; i <= 3; i++) checkCover({ index: i, count: 3 });
  });
});
