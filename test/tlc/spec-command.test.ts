/**
 * `fencecheck tlc --spec FILE --config FILE [--lib DIR]… [-- TLC options]`: usage and bad input
 * without Java; with a jar, any spec's outcome, property, loop and TLC exit status in the StageReport.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { PassThroughError, resolvePassThrough } from '../../src/tlc/pass-through.js';
import { specRunName } from '../../src/tlc/spec-report.js';
import { runCli } from '../verify/run-cli.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
const S = join(projectRoot, 'test/tlc/specs');
const report = (stdout: string) => JSON.parse(stdout) as { status: string; reason?: string; counts: Record<string, number>; details: Record<string, unknown>; traces?: string[] };

describe('TLC pass-through options', () => {
  it('makes file arguments absolute and refuses the options fencecheck sets itself', () => {
    expect(resolvePassThrough(['-dumpTrace', 'json', 'out.json', '-depth', '50', '-deadlock'], '/w')).toEqual(['-dumpTrace', 'json', '/w/out.json', '-depth', '50', '-deadlock']);
    expect(resolvePassThrough(['-dump', 'dot,actionlabels', 'g.dot', '-dump', 's'], '/w')).toEqual(['-dump', 'dot,actionlabels', '/w/g.dot', '-dump', '/w/s']);
    expect(resolvePassThrough(['-userFile', '/abs/u.txt'], '/w')).toEqual(['-userFile', '/abs/u.txt']);
    expect(() => resolvePassThrough(['-tool'])).toThrow(PassThroughError);
    expect(() => resolvePassThrough(['-workers', '4'])).toThrow(/use --workers N/);
    expect(() => resolvePassThrough(['-config', 'x.cfg'])).toThrow(/use --config FILE/);
    expect(() => resolvePassThrough(['-dumpTrace', 'json'])).toThrow(/takes a format and a file/);
    expect(() => resolvePassThrough(['Spec.tla'])).toThrow(/TLC option expected after --/);
  });
});

describe('fencecheck tlc --spec: usage and bad input (no Java needed)', () => {
  it('exits 64 for options that need --spec or cannot go with it, and 3 for missing files', async () => {
    const usage = async (args: string[], re: RegExp) => {
      const r = await runCli(['tlc', ...args]);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.stderr).toMatch(re);
    };
    await usage(['--config', 'x.cfg'], /--config needs --spec FILE/);
    await usage(['--lib', '/tmp'], /--lib needs --spec FILE/);
    await usage(['--', '-deadlock'], /-- TLC options needs --spec FILE/);
    await usage(['--spec', join(S, 'Deadlock.tla'), '--mutants'], /--mutants checks the project's specs; it cannot be combined with --spec/);
    await usage(['--spec', join(S, 'Deadlock.tla'), '--', '-tool'], /TLC option -tool cannot be passed through/);
    const missing = await runCli(['tlc', '--spec', '/nonexistent/Nope.tla']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/--spec \/nonexistent\/Nope\.tla does not exist/);
    const noCfg = await runCli(['tlc', '--spec', join(S, 'Liveness.tla')]);
    expect(noCfg.code).toBe(3);
    expect(noCfg.stderr).toMatch(/the default config .*Liveness\.cfg does not exist/);
    const noLib = await runCli(['tlc', '--spec', join(S, 'Deadlock.tla'), '--lib', '/nonexistent-lib']);
    expect(noLib.code).toBe(3);
  });
});

describe(`fencecheck tlc --spec with real TLC${why}`, () => {
  it.skipIf(!located.ok)(
    `a temporal property violation: exit 1, the property, the lasso, TLC exit 13${why}`,
    async () => {
      const r = await runCli(['tlc', '--spec', join(S, 'Liveness.tla'), '--config', join(S, 'LivenessLoop.cfg'), '--json']);
      expect(r.code).toBe(1);
      const rep = report(r.stdout);
      expect(rep).toMatchObject({ status: 'failed', reason: 'property-violation: Reaches3', counts: { generated: 4, distinct: 3, traceStates: 3 } });
      expect(rep.details).toMatchObject({
        outcome: 'property-violation',
        violated: 'Reaches3',
        violationKind: 'temporal-property',
        tlcExit: { code: 13, agrees: true },
        loop: 0,
        loopAction: { action: 'Step' },
      });
      // Named by the spec and its path (two specs named MC.tla overwrote each other's trace).
      expect(rep.traces?.[0]).toBe(`reports/tlc/${specRunName(join(S, 'Liveness.tla'))}.trace.json`);
      expect(rep.traces?.[0]).toMatch(/^reports\/tlc\/Liveness-[0-9a-f]{8}\.trace\.json$/);
      const show = await runCli(['trace', 'show', resolve(projectRoot, rep.traces![0]!), '--no-color']);
      expect(show.stdout).toMatch(/lasso: after step 2, Step\(1\) goes back to state 0/);
    },
    120_000,
  );

  it.skipIf(!located.ok)(
    `a config error is its own outcome: exit 2, TLC exit 151${why}`,
    async () => {
      const r = await runCli(['tlc', '--spec', join(S, 'Deadlock.tla'), '--config', join(S, 'ConfigUndefined.cfg'), '--json']);
      expect(r.code).toBe(2);
      expect(report(r.stdout)).toMatchObject({
        status: 'not-run',
        reason: expect.stringMatching(/^config error: The invariant NoSuchInvariant/),
        details: { outcome: 'config-error', tlcExit: { code: 151 } },
      });
    },
    120_000,
  );

  it.skipIf(!located.ok)(
    `deadlock is checked by default, -- -deadlock turns it off, -dumpTrace writes beside the caller${why}`,
    async () => {
      const dead = await runCli(['tlc', '--spec', join(S, 'Deadlock.tla'), '--json']);
      expect(dead.code).toBe(1);
      expect(report(dead.stdout).details).toMatchObject({ outcome: 'deadlock', tlcExit: { code: 11 } });
      const cwd = ownedTempDir('dt');
      const { execFileSync } = await import('node:child_process');
      let code = 0;
      try {
        execFileSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'tlc', '--spec', join(S, 'Values.tla'), '--', '-deadlock', '-dumpTrace', 'json', 'values.json'], {
          cwd,
          stdio: 'pipe',
        });
      } catch (err) {
        code = (err as { status: number }).status;
      }
      expect(code).toBe(1);
      expect(existsSync(join(cwd, 'values.json'))).toBe(true);
      expect((await runCli(['trace', 'show', join(cwd, 'values.json')])).code).toBe(0);
    },
    120_000,
  );

  it.skipIf(!located.ok)(
    `TLC printing without end (-continue on an unbounded spec) is stopped, not buffered until memory runs out${why}`,
    async () => {
      if (!located.ok) return;
      const { runTlc } = await import('../../src/tlc/run.js');
      const run = await runTlc({
        spec: join(S, 'Values.tla'),
        config: join(S, 'Values.cfg'),
        tools: located.tools,
        checkDeadlock: true,
        extraArgs: ['-continue'],
        maxOutputBytes: 2 ** 20,
        timeoutMs: 60_000,
      });
      expect(run.kind).toBe('completed');
      if (run.kind === 'completed') expect(run.result).toMatchObject({ outcome: 'crash', errors: [expect.stringMatching(/printed more than 1 MiB and was stopped/)] });
    },
    120_000,
  );

  it.skipIf(!located.ok)(
    `--lib finds a module the spec EXTENDS outside its directory${why}`,
    async () => {
      const root = ownedTempDir('lib');
      mkdirSync(join(root, 'lib'));
      mkdirSync(join(root, 'spec'));
      writeFileSync(join(root, 'lib', 'Helper.tla'), '---- MODULE Helper ----\nEXTENDS Naturals\nTwice(n) == 2 * n\n====\n');
      writeFileSync(join(root, 'spec', 'UsesLib.tla'), '---- MODULE UsesLib ----\nEXTENDS Helper\nVARIABLE v\nInit == v = Twice(1)\nNext == UNCHANGED v\n====\n');
      writeFileSync(join(root, 'spec', 'UsesLib.cfg'), 'INIT Init\nNEXT Next\n');
      const without = await runCli(['tlc', '--spec', join(root, 'spec', 'UsesLib.tla'), '--json']);
      expect(without.code).toBe(2);
      expect(report(without.stdout).details.outcome).toBe('parse-error');
      const withLib = await runCli(['tlc', '--spec', join(root, 'spec', 'UsesLib.tla'), '--lib', join(root, 'lib'), '--json']);
      expect(withLib.code).toBe(0);
      expect(report(withLib.stdout)).toMatchObject({ status: 'passed', counts: { distinct: 1 } });
      expect(readFileSync(join(root, 'spec', 'UsesLib.tla'), 'utf8')).toMatch(/EXTENDS Helper/);
    },
    120_000,
  );
});
