// `fencecheck mutants --system NAME`: the manifest's entries of the named systems only (the real CLI, no Valkey or Java needed).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';

function cli(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('node', [join(projectRoot, 'bin/fencecheck.mjs'), ...argv], { cwd: projectRoot, timeout: 60_000 }, (err, stdout, stderr) =>
      done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

describe('fencecheck mutants --system', () => {
  it("runs only the named systems' mutants: --system failover --layer model is R1 alone, killed", async () => {
    const r = await cli(['mutants', '--layer', 'model', '--system', 'failover', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { mutants: { id: string; verdict: string }[]; counts: Record<string, number> };
    expect(report.mutants.map((m) => [m.id, m.verdict])).toEqual([['R1', 'killed']]);
    expect(report.counts).toMatchObject({ mutants: 1, killed: 1 });
  });

  it('an unknown system, or one without the layer, is usage (64) in one line', async () => {
    const unknown = await cli(['mutants', '--system', 'paus']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr.trim()).toMatch(/^fencecheck mutants: --system: unknown system 'paus' \(one of fencing, failover, limiter, pause, init-limiter, or all\)/);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    const none = await cli(['mutants', '--layer', 'tla', '--system', 'limiter']);
    expect(none.code).toBe(64);
    expect(none.stderr).toMatch(/no mutant of the manifest \(system limiter\) has the layer\(s\) tla/);
  });
});
