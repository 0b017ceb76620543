import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../verify/run-cli.js';
import { startTopology, type Topology } from '../../src/valkey/index.js';
import { SNAPSHOT_PATH } from '../../src/luacheck/keyspecs.js';
import type { StageReport } from '../../src/core/stage-report.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

/** `fencecheck lua-check` as a user runs it: real processes, exit codes, text, --json, JUnit, --node. */
const CORPUS = join(import.meta.dirname, 'corpus');
let dir: string;
let topology: Topology | undefined;

const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

beforeAll(() => {
  dir = ownedTempDir('lua-check');
});
afterAll(async () => {
  await topology?.stop();
});

describe('fencecheck lua-check', () => {
  it("passes the project's own scripts by default (exit 0)", async () => {
    const r = await runCli(['lua-check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^lua-check: \d+ files, 0 errors, 0 warnings \(key specs: valkey 8\.\d+\.\d+\)$/m);
  });

  // Each file is checked on its own: the corpus's includes/ are checked alone too, and a finding in
  // an included file is reported for every file that includes it.
  it('reports file, line, column, severity, kind, command and key; exit 1; --json is a StageReport', async () => {
    const text = await runCli(['lua-check', '--includes', CORPUS]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^test\/luacheck\/corpus\/dirty-blmpop\.lua:2:35: error \[undeclared-key\] BLMPOP key `ARGV\[1\]` is not from KEYS/m);
    expect(text.stdout).toMatch(/^test\/luacheck\/corpus\/includes\/bad_helper\.lua:2:23: error \[undeclared-key\] LPUSH key `'log'`/m);
    const json = await runCli(['lua-check', '--includes', CORPUS, '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as StageReport<{ files: { file: string; status: string; findings: { kind: string; command?: string; key?: string }[] }[] }>;
    expect(report).toMatchObject({ schema: 'fencecheck.stage/1', stage: 'lua-check', status: 'failed', counts: { files: 61, errors: 57, unreachable: 2, warnings: 6, unparseable: 0 } });
    const xgroup = report.details!.files.find((f) => f.file.endsWith('dirty-xgroup.lua'))!;
    expect(xgroup.findings.map((f) => `${f.kind} ${f.command ?? ''} ${f.key ?? ''}`.trim())).toEqual([
      'undeclared-key XGROUP CREATE ARGV[1]',
      "undeclared-key XINFO GROUPS 'events'",
      'undeclared-key OBJECT ENCODING ARGV[2]',
      'dynamic-command XGROUP',
    ]);
  });

  it('--fail-on error passes warnings (still printed); the default fails on them', async () => {
    const f = write('tagged.lua', "return redis.call('GET', KEYS[1] .. ':meta')\n");
    const dflt = await runCli(['lua-check', f]);
    expect(dflt.code).toBe(1);
    expect(dflt.stdout).toMatch(/tagged\.lua:1:26: warning \[same-tag-key\]/);
    const lenient = await runCli(['lua-check', '--fail-on', 'error', f]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/1 warning/);
  });

  it('a syntax error is exit 3, one stderr line; the other files are still checked and reported', async () => {
    const bad = write('broken.lua', "local x = \nreturn redis.call('GET'\n");
    const dirty = write('dirty.lua', "return redis.call('GET', ARGV[1])\n");
    const r = await runCli(['lua-check', bad, dirty]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^fencecheck lua-check: .*broken\.lua:2:\d+: Lua syntax error: /);
    expect(r.stdout).toMatch(/dirty\.lua:1:26: error \[undeclared-key\]/);
  });

  it('--junit writes one testcase per file', async () => {
    const out = join(dir, 'junit.xml');
    const clean = write('clean.lua', "return redis.call('GET', KEYS[1])\n");
    const dirty = write('dirty2.lua', "return redis.call('DEL', 'x')\n");
    const r = await runCli(['lua-check', '--junit', out, clean, dirty]);
    expect(r.code).toBe(1);
    const xml = readFileSync(out, 'utf8');
    expect(xml).toMatch(/<testsuite name="fencecheck.lua-check" tests="2" failures="1" errors="0"/);
    expect(xml).toMatch(/<testcase classname="fencecheck.lua-check" name="[^"]*clean\.lua" time="(?!0\.000)\d+\.\d{3}"\/>/);
    expect(xml).toMatch(
      /<failure message="1 finding">[^<]*dirty2\.lua:1:26: error \[undeclared-key\] DEL key `&#39;x&#39;`|<failure message="1 finding">[^<]*dirty2\.lua:1:26: error \[undeclared-key\] DEL key `'x'`/,
    );
  });

  it('--node reads the key specs of a live server; --save-snapshot writes what the committed one holds', async () => {
    topology = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    const node = topology.nodes[0]!;
    const out = join(dir, 'specs.json');
    const r = await runCli(['lua-check', '--node', `${node.host}:${node.port}`, '--save-snapshot', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/key specs: valkey 8\.\d+\.\d+, live/);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(SNAPSHOT_PATH, 'utf8'));
  });

  it("verify runs lua-check over the project's scripts as a stage", async () => {
    const out = join(dir, 'reports');
    const r = await runCli(['verify', '--stages', 'lua-check', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/lua-check\s+passed/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testcase classname="fencecheck.stage" name="lua-check"/);
  });

  it('--node that does not answer is exit 2 (could not run); bad options are usage (64)', async () => {
    const down = await runCli(['lua-check', '--node', '127.0.0.1:1'], { FENCECHECK_CONNECT_TIMEOUT_MS: '500', FENCECHECK_COMMAND_TIMEOUT_MS: '1000' });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/^fencecheck lua-check: not run: cannot read the key specs from 127\.0\.0\.1:1/);
    const usage = await runCli(['lua-check', '--fail-on', 'fatal']);
    expect(usage.code).toBe(64);
    expect(usage.stderr.trimEnd()).toMatch(/^fencecheck lua-check: --fail-on takes error or warning, got 'fatal' \(see 'fencecheck lua-check --help'\)$/);
  });
});
