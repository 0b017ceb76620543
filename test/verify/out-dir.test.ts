/**
 * verify's reports are written all or nothing (`verify --out DIR` on a full disk left DIR
 * half written — a 0-byte verify.json, or a new verify.json beside a verify.html cut short). The
 * failed write is injected through the write function (always), and is a real ENOSPC on a 64 KiB
 * tmpfs mounted as --out where this machine lets the test mount one (root): either way the previous
 * run's reports, logs and traces are left whole, nothing of the failed run remains, and verify
 * exits 2 with one line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProgressSink } from '../../src/verify/progress.js';
import { REPORT_FILES, ReportWriteError, runVerify, type VerifyRunOptions } from '../../src/verify/run.js';
import { RunOutput } from '../../src/verify/out-dir.js';
import type { Stage } from '../../src/verify/stages.js';
import { fakeCommand, fakeStage } from './fake-stages.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const DRIVER = resolve(import.meta.dirname, 'fixtures/verify-driver.mjs');
const quiet: ProgressSink = { planned() {}, started() {}, line() {}, finished() {}, close() {} };
const spec = (name: string): Stage => fakeStage(name, ['pass'], { heavy: false });

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A previous run's whole set in `out`: the four reports, a stage log, a trace. */
const PREVIOUS: Readonly<Record<string, string>> = {
  'verify.json': JSON.stringify({ schema: 'fencecheck.verify/2', verdict: { exitCode: 0, status: 'passed', reasons: [], waived: [] } }),
  'junit.xml': '<testsuites tests="1" failures="0"/>',
  'verify.md': '# fencecheck verify — PASSED',
  'verify.html': '<p>fencecheck verify — PASSED</p>',
  'stages/evidence.log': 'the previous run\n',
  'traces/model-M1.json': '{"previous": true}\n',
};

function writePrevious(out: string): void {
  for (const [f, text] of Object.entries(PREVIOUS)) {
    mkdirSync(join(out, f, '..'), { recursive: true });
    writeFileSync(join(out, f), text);
  }
}

/** Every file under `dir`, relative to it, with its contents. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const enospc = (path: string) => Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' });

function run(outDir: string, extra: Partial<VerifyRunOptions> = {}) {
  return runVerify({
    stages: ['a', 'b'],
    stageOptions: {},
    allowNotRun: [],
    jobs: 1,
    stageTimeoutMs: 30_000,
    outDir,
    progress: quiet,
    catalogue: [spec('a'), spec('b')],
    command: fakeCommand,
    ...extra,
  });
}

function tmpOut(): string {
  const d = ownedTempDir('out');
  made.push(d);
  return d;
}

describe('verify --out: all or nothing', () => {
  for (const failing of ['verify.html', 'verify.json', 'a.log']) {
    it(`a failed write of ${failing} keeps the previous run's reports, logs and traces whole, and leaves nothing of its own`, async () => {
      const out = tmpOut();
      writePrevious(out);
      const writeFile = (path: string, data: string) => {
        if (path.endsWith(failing)) {
          // A full disk: part of the file is written, then the write fails.
          writeFileSync(path, data.slice(0, 100));
          throw enospc(path);
        }
        writeFileSync(path, data);
      };
      const err = await run(out, { writeFile }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReportWriteError);
      expect((err as Error).message).toMatch(
        new RegExp(`^could not write the reports to ${out}: ENOSPC: no space left on device, write '.*${failing.replace('.', '\\.')}' \\(the previous reports are kept\\)$`),
      );
      expect(contents(out)).toEqual(PREVIOUS);
    });
  }

  it('a run that writes swaps in its whole set: the previous reports, logs and traces are gone', async () => {
    const out = tmpOut();
    writePrevious(out);
    const report = await run(out);
    const files = contents(out);
    expect(Object.keys(files).sort()).toEqual(['junit.xml', 'stages/a.log', 'stages/a.stdout.json', 'stages/b.log', 'stages/b.stdout.json', 'verify.html', 'verify.json', 'verify.md']);
    expect(JSON.parse(files['verify.json']!)).toEqual(report);
    // No hidden staging or previous folder is left.
    expect(readdirSync(out).filter((e) => e.startsWith('.'))).toEqual([]);
  });

  it('publish() alone puts the previous set back when the reports cannot be written', () => {
    const out = tmpOut();
    writePrevious(out);
    const run = RunOutput.open(out);
    run.writeLog('a.log', 'this run\n');
    writeFileSync(join(run.traceDir, 'model-M2.json'), '{}');
    expect(() =>
      run.publish((dir) => {
        writeFileSync(join(dir, 'verify.json'), '{');
        throw enospc(join(dir, 'verify.json'));
      }),
    ).toThrow(ReportWriteError);
    expect(contents(out)).toEqual(PREVIOUS);
  });

  it('while a run works, no previous report stands in --out; what a killed run left is removed by the next', () => {
    const out = tmpOut();
    writePrevious(out);
    // A verify that was SIGKILLed: its hidden folders, named after a process that is gone.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    mkdirSync(join(out, `.verify-staging-${dead}-0a0b`, 'stages'), { recursive: true });
    mkdirSync(join(out, `.verify-previous-${dead}-0a0b`), { recursive: true });
    const open = RunOutput.open(out);
    try {
      for (const f of REPORT_FILES) expect(readdirSync(out)).not.toContain(f);
      expect(readdirSync(out).filter((e) => e.includes(`-${dead}-`))).toEqual([]);
      expect(readdirSync(join(out, 'traces'))).toEqual([]);
    } finally {
      open.restore();
    }
    expect(contents(out)).toEqual(PREVIOUS);
  });
});

/** Mounting a tmpfs needs root; without it the real-disk case is skipped (the injected one above still runs). */
function tryMount(dir: string, size: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
  }
}

describe('verify --out on a real full disk', () => {
  const mnt = tmpOut();
  const why = tryMount(mnt, '64k');
  afterAll(() => {
    // Detached at once, even while a process the run started still holds it (then `umount` says busy).
    if (why === null) execFileSync('umount', ['-l', mnt]);
  });

  it.skipIf(why !== null)(`ENOSPC on a 64 KiB tmpfs: exit 2, one line, the previous reports whole${why ? ` — SKIPPED: cannot mount a tmpfs: ${why}` : ''}`, () => {
    writePrevious(mnt);
    const free = statfsSync(mnt).bfree;
    const r = spawnSync(process.execPath, [DRIVER, '--stages', 'evidence,explore', '--out', mnt], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FAKE_VERIFY_STAGES: '{}' },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^fencecheck verify: could not write the reports to ${mnt}: ENOSPC: no space left on device, write .*\\(the previous reports are kept\\)$`)),
    ]);
    expect(contents(mnt)).toEqual(PREVIOUS);
    expect(readdirSync(mnt).filter((e) => e.startsWith('.'))).toEqual([]);
    // Nothing of the failed run takes space.
    expect(statfsSync(mnt).bfree).toBe(free);
  });
});
