/**
 * `fencecheck cluster-matrix` end to end on one fast row: the matrix, the StageReport (details: the rows with
 * both verdicts and the figures), and the exit codes — 0 passed, 1 a broken variant turned the row
 * red, 64 usage.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = 'bin/fencecheck.mjs';

async function clusterMatrix(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run('node', [BIN, 'cluster-matrix', ...args], { env: { ...process.env, FENCECHECK_VALKEY_PROVIDER: 'native' }, timeout: 90_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

it('--row presence --json: passed, exit 0, the rows in details', async () => {
  const r = await clusterMatrix(['--row', 'presence', '--json']);
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout) as {
    stage: string;
    status: string;
    details: { schema: string; rows: { name: string; errors: { status: string }; silentlyWrong: { status: string }; figures: Record<string, unknown> }[] };
  };
  expect(report.stage).toBe('cluster-matrix');
  expect(report.status).toBe('passed');
  expect(report.details.schema).toBe('fencecheck.cluster-matrix/1');
  expect(report.details.rows).toHaveLength(1);
  expect(report.details.rows[0]).toMatchObject({ name: 'presence', errors: { status: 'passed' }, silentlyWrong: { status: 'passed' } });
  expect(report.details.rows[0]!.figures['wrong reads']).toBe(0);
  // What the verify reports render: the section and one JUnit case per row.
  const shown = report as unknown as { details: { sections: { id: string }[]; suites: { name: string; cases: { name: string; status: string }[] }[] } };
  expect(shown.details.sections.map((s) => s.id)).toEqual(['cluster-matrix']);
  expect(shown.details.suites).toEqual([{ name: 'cluster-matrix', cases: [expect.objectContaining({ name: 'cluster-matrix presence (request)', status: 'passed' })] }]);
});

it('a broken variant turns the row red: exit 1, the matrix names it', async () => {
  const r = await clusterMatrix(['--row', 'presence', '--variant', 'presence=compact']);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toMatch(/presence \(compact\)\s+passed\s+FAILED: /);
});

it.each([[['--row', 'nope']], [['--repeat', '0']], [['--variant', 'presence=nope']]])('usage %j → 64', async (args) => {
  const r = await clusterMatrix(args);
  expect(r.code).toBe(64);
});
