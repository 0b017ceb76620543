/**
 * `--json` on every path: a command asked for JSON always leaves one document on stdout — its own
 * report when it ran, else a StageReport of the error (usage, bad input) with the line stderr
 * still gets; `bench --json` is no longer a usage error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StageReport } from '../../src/core/stage-report.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { runCli } from '../verify/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = ownedTempDir('json-everywhere');
});

const report = (stdout: string) => JSON.parse(stdout) as StageReport<{ exitCode: number; stderr: string[] }>;

describe('--json on error paths', () => {
  it('merge: a report that is not there is exit 3 with a StageReport on stdout (it printed nothing)', async () => {
    const r = await runCli(['merge', '--json', '/nonexistent/verify.json']);
    expect(r.code).toBe(3);
    expect(report(r.stdout)).toMatchObject({ schema: 'fencecheck.stage/1', stage: 'merge', status: 'failed', reason: '/nonexistent/verify.json: cannot read: ENOENT', details: { exitCode: 3 } });
    expect(r.stderr.trim().split('\n')).toEqual(['fencecheck merge: /nonexistent/verify.json: cannot read: ENOENT']);
  });

  it('a usage error (64), also through --format json and for bench', async () => {
    const a = await runCli(['lua-check', '--format', 'json', '--fail-on', 'fatal']);
    expect(a.code).toBe(64);
    expect(report(a.stdout)).toMatchObject({ stage: 'lua-check', status: 'failed', reason: expect.stringMatching(/^--fail-on takes error or warning, got 'fatal'/) });
    const b = await runCli(['bench', '--json', 'nosuch']);
    expect(b.code).toBe(64);
    expect(report(b.stdout)).toMatchObject({ stage: 'bench', status: 'failed', reason: expect.stringMatching(/^unknown section 'nosuch'/) });
  });

  it('a command that ran prints its own report once, on success and on findings', async () => {
    const clean = join(dir, 'clean.lua');
    writeFileSync(clean, "return redis.call('GET', KEYS[1])\n");
    const dirty = join(dir, 'dirty.lua');
    writeFileSync(dirty, "return redis.call('GET', 'x')\n");
    for (const [file, code] of [
      [clean, 0],
      [dirty, 1],
    ] as const) {
      const r = await runCli(['lua-check', '--json', file]);
      expect(r.code).toBe(code);
      expect(report(r.stdout)).toMatchObject({ stage: 'lua-check', status: code === 0 ? 'passed' : 'failed', counts: { files: 1 } });
    }
  });
});
