import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StageOutcome } from '../../src/report/verify-doc.js';
import { formatDuration, LineProgress, LiveProgress } from '../../src/verify/progress.js';

const outcome = (stage: string, status: StageOutcome['status'], extra: Partial<StageOutcome> = {}): StageOutcome => ({
  stage,
  command: [stage, '--json'],
  status,
  allowedNotRun: false,
  exitCode: status === 'passed' ? 0 : 2,
  signal: null,
  startedAt: '2026-11-30T06:00:00.000Z',
  durationMs: 1234,
  summary: `${stage} summary`,
  leftoverProcesses: 0,
  report: null,
  ...extra,
});

describe('progress', () => {
  it('plain mode: one line per event, stage progress lines throttled per stage', () => {
    const lines: string[] = [];
    const p = new LineProgress((l) => lines.push(l), 60_000);
    p.planned(['explore', 'tlc']);
    p.started('explore');
    p.line('explore', 'first progress line is shown');
    p.line('explore', 'a second one within the throttle window is not');
    p.finished(outcome('explore', 'passed', { counts: { distinct: 4117 } }));
    p.finished(outcome('tlc', 'not-run', { reason: 'no jar', allowedNotRun: true }));
    expect(lines.map((l) => l.replace(/^\[verify \+[\d.]+s\] /, ''))).toEqual([
      'stages: explore, tlc',
      'explore: started',
      'explore: first progress line is shown',
      'explore: passed in 1.2s [distinct=4117]: explore summary',
      'tlc: not-run (allowed) in 1.2s: no jar',
    ]);
  });

  it('terminal mode: redraws one row per stage in place, with state, elapsed and counts', () => {
    const out = Object.assign(new PassThrough(), { columns: 120 }) as unknown as NodeJS.WriteStream;
    let text = '';
    (out as unknown as PassThrough).on('data', (d: Buffer) => (text += d.toString()));
    const p = new LiveProgress(out);
    p.planned(['props', 'tlc']);
    p.started('props');
    p.line('props', 'run 12/500');
    p.finished(outcome('props', 'failed', { reason: 'Inv_Monotonic broke', counts: { runs: 12 } }));
    p.close();
    const frames = text.split('\x1b[2F');
    const last = frames[frames.length - 1]!;
    expect(frames.length).toBeGreaterThan(1);
    expect(last).toMatch(/✘ props\s+failed\s+1\.2s\s+runs=12 · Inv_Monotonic broke/);
    expect(last).toMatch(/· tlc\s+waiting/);
    expect(formatDuration(83_000)).toBe('1m23s');
  });
});
