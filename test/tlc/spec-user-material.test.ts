/**
 * `fencecheck tlc --spec` on material the project did not write ("Specs"), with real TLC:
 * a spec's folder travels with it (a JSON data file it reads, a Java module override compiled here);
 * module jars on the classpath (`--classpath`, `--lib JAR`, `TLA2TOOLS_JAR=a.jar:b.jar`); JVM options
 * (`--java-opt`); two specs named MC.tla keep their own trace files; a liveness violation beside a
 * TLC warning is a property violation (exit 1), not a config error (exit 2). Each was broken before.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { specRunName } from '../../src/tlc/spec-report.js';
import { runCli } from '../verify/run-cli.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
const jar = located.ok ? located.tools.jar : '';
const hasJdk = (() => {
  try {
    execFileSync('javac', ['-version'], { stdio: 'ignore' });
    execFileSync('jar', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dir: string;
const written: string[] = [];
const report = (stdout: string) =>
  JSON.parse(stdout) as { status: string; reason?: string; details: { outcome: string; violated?: string; tlcExit?: { code: number; agrees: boolean } }; traces?: string[] };
const spec = (folder: string, name: string, tla: string, cfg: string) => {
  mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(join(dir, folder, `${name}.tla`), `---- MODULE ${name} ----\n${tla}\n====\n`);
  writeFileSync(join(dir, folder, `${name}.cfg`), cfg);
  const path = join(dir, folder, `${name}.tla`);
  written.push(join(projectRoot, 'reports/tlc', `${specRunName(path)}.json`), join(projectRoot, 'reports/tlc', `${specRunName(path)}.trace.json`));
  return path;
};
const tlc = (args: readonly string[], env: Record<string, string> = {}) => runCli(['tlc', '--json', ...args], { TLA2TOOLS_JAR: jar, ...env });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fencecheck-spec-material-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const f of written) rmSync(f, { force: true });
});

describe.skipIf(!located.ok)(`tlc --spec: the spec's folder, classpath, JVM options${why}`, () => {
  it('a data file beside the spec is there when TLC runs (only *.tla was copied: it went missing)', async () => {
    const s = spec(
      'data',
      'ReadsData',
      'EXTENDS Naturals, Json\nLimit == JsonDeserialize("limits.json").max\nVARIABLE x\nInit == x = 0\nNext == x < Limit /\\ x\' = x + 1\nInRange == x <= Limit',
      'INIT Init\nNEXT Next\nINVARIANT InRange\n',
    );
    writeFileSync(join(dir, 'data', 'limits.json'), '{"max": 3}\n');
    const r = await tlc(['--spec', s, '--', '-deadlock']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(report(r.stdout).details.outcome).toBe('ok');
  }, 120_000);

  it.skipIf(!hasJdk)(
    'a Java module override beside the spec is used (Twice(2) is 5 only through Twice.class)',
    async () => {
      const s = spec('override', 'UsesOverride', 'EXTENDS Naturals, Twice\nASSUME Twice(2) = 5\nVARIABLE x\nInit == x = 0\nNext == UNCHANGED x', 'INIT Init\nNEXT Next\n');
      writeFileSync(join(dir, 'override', 'Twice.tla'), '---- MODULE Twice ----\nEXTENDS Naturals\nTwice(n) == 2 * n\n====\n');
      writeFileSync(
        join(dir, 'override', 'Twice.java'),
        'import tlc2.value.impl.IntValue;\nimport tlc2.value.impl.Value;\npublic class Twice {\n  public static Value Twice(Value n) { return IntValue.gen(((IntValue) n).val * 2 + 1); }\n}\n',
      );
      execFileSync('javac', ['-cp', jar, '-d', join(dir, 'override'), join(dir, 'override', 'Twice.java')]);
      const r = await tlc(['--spec', s, '--', '-deadlock']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    },
    120_000,
  );

  it.skipIf(!hasJdk)(
    'a module jar: --classpath, --lib JAR and TLA2TOOLS_JAR=tla2tools.jar:mods.jar (--lib took folders only; the list was refused)',
    async () => {
      const mods = join(dir, 'mods');
      mkdirSync(mods, { recursive: true });
      writeFileSync(join(mods, 'JarMod.tla'), '---- MODULE JarMod ----\nEXTENDS Naturals\nCap == 2\n====\n');
      execFileSync('jar', ['cf', join(dir, 'mods.jar'), '-C', mods, 'JarMod.tla']);
      const s = spec('needsjar', 'NeedsJar', "EXTENDS Naturals, JarMod\nVARIABLE x\nInit == x = 0\nNext == x < Cap /\\ x' = x + 1", 'INIT Init\nNEXT Next\n');
      const without = await tlc(['--spec', s, '--', '-deadlock']);
      expect(without.code).toBe(2);
      expect(report(without.stdout).reason).toMatch(/Cannot find source file for module JarMod imported in module NeedsJar\./);
      for (const [args, env] of [
        [['--classpath', join(dir, 'mods.jar')], {}],
        [['--lib', join(dir, 'mods.jar')], {}],
        [[], { TLA2TOOLS_JAR: `${jar}:${join(dir, 'mods.jar')}` }],
      ] as const) {
        const r = await tlc(['--spec', s, ...args, '--', '-deadlock'], env);
        expect(r.code, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stdout}${r.stderr}`).toBe(0);
      }
    },
    240_000,
  );

  it('--java-opt reaches the JVM (a heap too small to start is the JVM refusing; a normal one runs)', async () => {
    const s = spec('jvm', 'Jvm', "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x < 2 /\\ x' = x + 1", 'INIT Init\nNEXT Next\n');
    const tiny = await tlc(['--spec', s, '--java-opt', '-Xmx1m', '--', '-deadlock']);
    expect(tiny.code).toBe(2);
    expect(report(tiny.stdout).reason).toMatch(/heap/i);
    const ok = await tlc(['--spec', s, '--java-opt=-Xmx256m', '--java-opt', '-Dfencecheck.test=1', '--', '-deadlock']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
  }, 120_000);

  it('two specs named MC.tla keep their own trace files (they overwrote each other)', async () => {
    const a = spec('one', 'MC', "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = x + 1\nSmall == x < 2", 'INIT Init\nNEXT Next\nINVARIANT Small\n');
    const b = spec('two', 'MC', "EXTENDS Naturals\nVARIABLE y\nInit == y = 10\nNext == y' = y + 1\nSmall == y < 12", 'INIT Init\nNEXT Next\nINVARIANT Small\n');
    const ra = report((await tlc(['--spec', a])).stdout);
    const rb = report((await tlc(['--spec', b])).stdout);
    expect(ra.traces).toHaveLength(1);
    expect(rb.traces).toHaveLength(1);
    expect(ra.traces![0]).not.toBe(rb.traces![0]);
    const ta = readFileSync(resolve(projectRoot, ra.traces![0]!), 'utf8');
    const tb = readFileSync(resolve(projectRoot, rb.traces![0]!), 'utf8');
    expect(ta).toMatch(/"x"/);
    expect(tb).toMatch(/"y"/);
    expect(existsSync(join(projectRoot, 'reports/tlc', `${specRunName(a)}.json`))).toBe(true);
  }, 120_000);

  it('a liveness violation whose output also carries a TLC warning: property violation, exit 1 (it was config-error, DISAGREES, exit 2)', async () => {
    const r = await tlc(['--spec', join(projectRoot, 'test/tlc/specs/LivenessWarning.tla')]);
    written.push(
      ...[join(projectRoot, 'test/tlc/specs/LivenessWarning.tla')].flatMap((p) => [
        join(projectRoot, 'reports/tlc', `${specRunName(p)}.json`),
        join(projectRoot, 'reports/tlc', `${specRunName(p)}.trace.json`),
      ]),
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(report(r.stdout)).toMatchObject({
      status: 'failed',
      reason: 'property-violation: SettlesAt1',
      details: { outcome: 'property-violation', violated: 'SettlesAt1', tlcExit: { code: 13, agrees: true } },
    });
  }, 120_000);
});

describe('tlc --spec: the new options refuse what they cannot take (no Java needed)', () => {
  it('--java-opt that is no JVM option or that sets the classpath; --classpath without --spec', async () => {
    for (const [args, re] of [
      [['--spec', 'test/tlc/specs/Deadlock.tla', '--java-opt', 'Xmx4g'], /--java-opt takes a JVM option/],
      [['--spec', 'test/tlc/specs/Deadlock.tla', '--java-opt', '-cp'], /fencecheck sets the classpath/],
      [['--classpath', 'x.jar'], /--classpath needs --spec FILE/],
      [['--java-opt=-Xmx1g'], /--java-opt needs --spec FILE/],
    ] as const) {
      const r = await runCli(['tlc', ...args]);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.stderr).toMatch(re);
    }
  });
});
