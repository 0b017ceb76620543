// `fencecheck evidence` judges every system's committed TLC evidence, not only fencing's: a seam
// system's spec edited after TLC ran makes it fail (1), naming the system and the file.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function copy(): string {
  const d = ownedTempDir('evidence');
  dirs.push(d);
  for (const part of ['bin', 'src', 'models', 'properties', 'mutants', 'tla', 'evidence', 'package.json']) cpSync(join(projectRoot, part), join(d, part), { recursive: true });
  symlinkSync(join(projectRoot, 'node_modules'), join(d, 'node_modules'));
  return d;
}

const evidence = (root: string) => {
  const r = spawnSync(process.execPath, [join(root, 'bin/fencecheck.mjs'), 'evidence', '--json'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, report: JSON.parse(r.stdout) as { status: string; reason?: string; counts: Record<string, number>; details?: unknown; mutants?: { id: string; verdict: string }[] } };
};

describe('fencecheck evidence over every system', () => {
  it("fresh: every system's base (fencing, failover, pause, init-limiter) and all 31 tla-layer mutants", () => {
    const { code, report } = evidence(projectRoot);
    expect(code).toBe(0);
    expect(report.counts).toMatchObject({ 'fencing.distinct': 4117, 'failover.distinct': 742, 'pause.distinct': 15268, 'init-limiter.distinct': 2455, mutants: 31, killed: 31 });
  });

  it('a pause spec edited after TLC ran: failed, naming the system and the file; its mutants not run', () => {
    const root = copy();
    appendFileSync(join(root, 'tla/pause/PauseSnapshot.tla'), '\\* edited after TLC ran\n');
    const { code, report } = evidence(root);
    expect(code).toBe(1);
    expect(report.reason).toMatch(/pause base: tla\/pause\/PauseSnapshot\.tla changed since TLC ran/);
    expect(report.reason).toMatch(/P1 not-run/);
    expect(report.reason).not.toMatch(/failover base|fencing base/);
  });
});
