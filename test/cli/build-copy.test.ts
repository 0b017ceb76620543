/**
 * The real build on a copy of the project (deep tier: it compiles every module): scripts/build.mjs
 * compiles; the compiled CLI prints the same --help as the sources, finds the project's files from
 * its root (lua-check reads the Lua under src/), loads the project's patch modules
 * (a model mutant killed); and once a source is edited the bin runs the edit.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { staleReason } from '../../bin/build-state.mjs';

const COPIED = ['src', 'models', 'properties', 'mutants', 'bench', 'bin', 'scripts', 'tla', 'evidence', 'package.json', 'tsconfig.json'];

let root = '';
const node = (args: readonly string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 300_000 });
const cli = (args: readonly string[], env: Record<string, string> = {}) => node([join(root, 'bin/fencecheck.mjs'), ...args], env);

beforeAll(() => {
  root = ownedTempDir('build-copy');
  for (const f of COPIED) cpSync(join(projectRoot, f), join(root, f), { recursive: true, filter: (src) => !src.includes('/.build') });
  symlinkSync(join(projectRoot, 'node_modules'), join(root, 'node_modules'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.sequential('scripts/build.mjs and the compiled CLI, on a copy of the project', () => {
  it('builds every module, and records the command summaries and the stamp', () => {
    const r = node(['scripts/build.mjs']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^build: \d+ modules compiled into \.build\//);
    expect(Object.keys(JSON.parse(readFileSync(join(root, '.build/commands.json'), 'utf8')) as object)).toContain('verify');
  });

  it('--help from the build is the sources’ --help, word for word', () => {
    expect(staleReason(root)).toBeNull(); // the bin runs the build
    const built = cli(['--help']);
    const source = cli(['--help'], { FENCECHECK_FROM_SOURCE: '1' });
    expect(built.status).toBe(0);
    expect(built.stdout).toBe(source.stdout);
  });

  it('the compiled CLI finds the project from its root: lua-check reads the Lua under src/', () => {
    expect(staleReason(root)).toBeNull();
    const r = cli(['lua-check']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/lua-check: 29 files, 0 errors/);
  });

  it("a model mutant's patch loads in the compiled CLI and is killed", () => {
    expect(staleReason(root)).toBeNull();
    const r = cli(['mutants', '--layer', 'model', '--system', 'failover', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { mutants: { id: string; verdict: string }[] };
    expect(report.mutants.map((m) => [m.id, m.verdict])).toEqual([['R1', 'killed']]);
  });

  it('an edited source runs at once: the bin falls back to it', () => {
    const main = join(root, 'src/cli/main.ts');
    writeFileSync(main, readFileSync(main, 'utf8').replace('fencecheck — formal-model-driven verification', 'fencecheck (edited) — formal-model-driven verification'));
    expect(cli(['--help']).stdout).toMatch(/^fencecheck \(edited\) — /);
  });
});
