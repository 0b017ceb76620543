import { describe, expect, it } from 'vitest';
import { countsPerSystem, worstStatus } from '../../src/core/stage-report.js';

describe('the worst status of several parts', () => {
  it('is failed when any part failed, even beside one that did not run', () => {
    expect(worstStatus(['passed', 'not-run', 'failed', 'passed'])).toBe('failed');
    expect(worstStatus(['not-run', 'failed'])).toBe('failed');
  });

  it('is not-run when nothing failed and some part did not run: never a pass', () => {
    expect(worstStatus(['passed', 'not-run', 'passed'])).toBe('not-run');
  });

  it('is passed only when every part passed', () => {
    expect(worstStatus(['passed', 'passed'])).toBe('passed');
  });

  it('of no part at all is what the caller says nothing judged means', () => {
    expect(worstStatus([])).toBe('passed');
    expect(worstStatus([], 'not-run')).toBe('not-run');
    expect(worstStatus(['passed'], 'not-run')).toBe('passed');
  });
});

describe("several systems' counts as one stage's", () => {
  it("keeps one system's counts as they are", () => {
    expect(countsPerSystem([{ system: 'a', counts: { states: 3 } }])).toEqual({ states: 3 });
  });

  it("puts several systems' counts each under its name", () => {
    expect(countsPerSystem([{ system: 'a', counts: { states: 3 } }, { system: 'b-c', counts: { states: 4, edges: 5 } }, { system: 'd' }])).toEqual({
      'a.states': 3,
      'b-c.states': 4,
      'b-c.edges': 5,
    });
  });
});
