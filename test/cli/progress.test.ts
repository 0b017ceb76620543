import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { liveProgress, ProgressConsole, progressText } from '../../src/core/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 80, write: (s: string) => writes.push(s) } };
}

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('progress meters', () => {
  it('says counts, share, elapsed and an estimate once something is done', () => {
    expect(progressText('props', 0, 500, 'runs', 0)).toBe('props: 0/500 runs (0 %), 0.0s');
    expect(progressText('props', 100, 500, 'runs', 10_000, '4,000 commands')).toBe('props: 100/500 runs (20 %), 10.0s, about 40.0s left · 4,000 commands');
    // shrinking runs past the planned count: never more than 100 %
    expect(progressText('limiter', 130, 100, 'cases', 5_000)).toBe('limiter: 100/100 cases (100 %), 5.0s');
  });

  it('on a terminal: one line redrawn in place, log lines above it, cleared at the end', () => {
    const { writes, stream } = fakeStream(true);
    const c = clock();
    const p = new ProgressConsole(stream, {}, c.now);
    expect(p.live).toBe(true);
    const m = p.meter('conform', 10, 'attempts');
    c.advance(200);
    m.update(5);
    p.log('a log line');
    c.advance(200);
    m.done();
    const all = writes.join('');
    expect(all).toContain('\r\x1b[2Kconform: 5/10 attempts (50 %)');
    // the log line is printed on a cleared line, and the meter comes back under it
    expect(all).toMatch(/\r\x1b\[2Ka log line\n\r\x1b\[2Kconform: 5\/10/);
    expect(writes.at(-1)).toBe('\r\x1b[2K');
  });

  it('in CI or a pipe: a plain line every few seconds, nothing redrawn', () => {
    const { writes, stream } = fakeStream(false);
    const c = clock();
    const p = new ProgressConsole(stream, { FENCECHECK_PROGRESS_MS: '5000' }, c.now);
    expect(p.live).toBe(false);
    const m = p.meter('props [standalone]', 100, 'runs');
    for (let i = 1; i <= 100; i++) {
      c.advance(200);
      m.update(i);
    }
    m.done();
    const lines = writes.join('').split('\n').filter(Boolean);
    expect(lines.length).toBe(4); // 20 s of updates, one line per 5 s
    expect(lines[0]).toMatch(/^props \[standalone\]: 25\/100 runs \(25 %\), 5\.0s, about 15\.0s left$/);
    expect(writes.join('')).not.toContain('\r');
  });

  it('is live only on a terminal outside CI', () => {
    expect(liveProgress({ isTTY: true, write: () => 0 }, {})).toBe(true);
    expect(liveProgress({ isTTY: true, write: () => 0 }, { CI: 'true' })).toBe(false);
    expect(liveProgress({ isTTY: true, write: () => 0 }, { FENCECHECK_PROGRESS: 'plain' })).toBe(false);
    expect(liveProgress({ isTTY: false, write: () => 0 }, {})).toBe(false);
  });

  it('props prints its runs, share and estimate while it runs (real Valkey)', () => {
    const r = spawnSync(process.execPath, ['bin/fencecheck.mjs', 'props', '--topology', 'standalone', '--runs', '4', '--provider', 'native'], {
      cwd: projectRoot,
      env: { ...process.env, FENCECHECK_PROGRESS_MS: '0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^props \[standalone\]: 2\/4 runs \(50 %\), [\d.]+s(, about [\dms.]+ left)? · [\d,]+ commands, every check held so far$/m);
  }, 60_000);
});
