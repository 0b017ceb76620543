/**
 * ownedTempDir (src/core/temp-dir.ts): a temporary folder of the process is gone when the process
 * ends — normally, by an uncaught exception, or by SIGINT/SIGTERM/SIGHUP (the process still ends by
 * the signal) — and endingSignalWithin recognises a signal that comes shortly after an error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';

const FIXTURE = join(projectRoot, 'test/cleanup/fixtures/owned-temp.mts');

function start(mode: string): { child: ChildProcess; lines: AsyncIterator<string>; ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'ignore'] });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](), ended };
}

async function next<T>(lines: AsyncIterator<string>): Promise<T> {
  const r = await lines.next();
  if (r.done) throw new Error('the fixture ended without printing');
  return JSON.parse(r.value) as T;
}

describe('owned temporary folders are removed when the process ends', () => {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`on ${sig}, and the process still ends by ${sig}`, async () => {
      const { child, lines, ended } = start('wait');
      const { dirs } = await next<{ dirs: string[] }>(lines);
      expect(dirs.every((d) => existsSync(d))).toBe(true);
      child.kill(sig);
      expect((await ended).signal).toBe(sig);
      expect(dirs.filter((d) => existsSync(d))).toEqual([]);
    });
  }

  it('on a normal exit and on an uncaught exception', async () => {
    for (const mode of ['exit', 'crash']) {
      const { lines, ended } = start(mode);
      const { dirs } = await next<{ dirs: string[] }>(lines);
      const r = await ended;
      expect(r.code, mode).toBe(mode === 'exit' ? 0 : 1);
      expect(
        dirs.filter((d) => existsSync(d)),
        mode,
      ).toEqual([]);
    }
  });

  it('a folder made while the end waits for its hooks is removed too', async () => {
    const { lines, ended } = start('folder-while-ending');
    const { dirs } = await next<{ dirs: string[] }>(lines);
    const { late } = await next<{ late: string }>(lines);
    expect((await ended).signal).toBe('SIGTERM');
    expect([...dirs, late].filter((d) => existsSync(d))).toEqual([]);
  });

  it('endingSignalWithin waits for a signal that comes after the question', async () => {
    const { lines, ended } = start('late-signal');
    const { dirs } = await next<{ dirs: string[] }>(lines);
    expect(await next<{ sig: string | null }>(lines)).toEqual({ sig: 'SIGTERM' });
    expect((await ended).signal).toBe('SIGTERM');
    expect(dirs.filter((d) => existsSync(d))).toEqual([]);
  });
});
