import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchSection } from './section.js';
import { median } from '../src/core/stats.js';
import { projectRoot } from '../src/core/project-root.js';
import { STAGES } from '../src/verify/stages.js';

/**
 * What a command costs before it does anything: the CPU of `fencecheck --version`, `--help` and of
 * each verify stage's process reaching its command (`<stage argv> --help` loads the stage's
 * command and all it imports), beside `node -e 0` in the same run, from the build (.build/) and
 * from the sources through tsx (FENCECHECK_FROM_SOURCE=1: the CLI before the build). CPU is
 * user + system of the process itself, read at its exit (bench/cpu-at-exit.mjs); the machine is
 * shared, so the ratios to `node -e 0` are the figure to compare across runs, medians of RUNS.
 */
const RUNS = 5;
/** The targets, in seconds of CPU (docs/decisions.md, "A build users never see"). */
const TARGETS = { version: 0.15, help: 0.3, stage: 0.2 } as const;

const HOOK = pathToFileURL(join(projectRoot, 'bench/cpu-at-exit.mjs')).href;
const BIN = join(projectRoot, 'bin/fencecheck.mjs');

/** Seconds of CPU of one process, `node --import HOOK <args>`. */
function cpuOnce(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const r = spawnSync(process.execPath, ['--import', HOOK, ...args], { cwd: projectRoot, encoding: 'utf8', env: { ...process.env, ...env } });
  const m = /fencecheck-bench-cpu-us (\d+)/.exec(r.stderr ?? '');
  if (r.status !== 0 || !m) throw new Error(`bench cli: node ${args.join(' ')} exited ${r.status}: ${(r.stderr ?? '').trim().split('\n')[0]}`);
  return Number(m[1]) / 1e6;
}

const cpu = (args: readonly string[], env: NodeJS.ProcessEnv = {}, runs = RUNS): number => median(Array.from({ length: runs }, () => cpuOnce(args, env)));

export const section: BenchSection = {
  name: 'cli',
  title: "a command's start: CPU of --version, --help and each verify stage's process, beside node -e 0 (medians)",
  async run(print) {
    // By path from the root: this module may run as its compiled copy in .build/, where ../bin is not.
    const { staleReason } = (await import(pathToFileURL(join(projectRoot, 'bin/build-state.mjs')).href)) as typeof import('../bin/build-state.mjs');
    const stale = staleReason(projectRoot);
    print(stale === null ? 'build: .build/ is fresh (the bin runs it)' : `build: not used — ${stale}; run scripts/setup (both rows below are the sources')`);
    const fromSource = { FENCECHECK_FROM_SOURCE: '1' };
    const node = cpu(['-e', '0']);
    const fmt = (s: number) => `${s.toFixed(3)} s (${(s / node).toFixed(1)}× node -e 0)`;
    const verdict = (s: number, target: number) => `${s <= target ? 'within' : 'OVER'} ${target} s`;
    print(`node -e 0: ${node.toFixed(3)} s CPU`);
    const version = cpu([BIN, '--version']);
    const help = cpu([BIN, '--help']);
    const stages = STAGES.map((s) => ({ name: s.name, s: cpu([BIN, 'stage', s.name, '--help'], {}, 3) }));
    const slowest = stages.reduce((a, b) => (b.s > a.s ? b : a));
    print(`--version: ${fmt(version)} · ${verdict(version, TARGETS.version)}`);
    print(`--help:    ${fmt(help)} · ${verdict(help, TARGETS.help)}`);
    print(`a stage's start (${stages.length} stages): median ${fmt(median(stages.map((x) => x.s)))}, slowest ${slowest.name} ${fmt(slowest.s)} · ${verdict(slowest.s, TARGETS.stage)}`);
    const overStage = stages.filter((x) => x.s > TARGETS.stage).sort((a, b) => b.s - a.s);
    if (overStage.length > 0) print(`  stages over ${TARGETS.stage} s: ${overStage.map((x) => `${x.name} ${x.s.toFixed(3)} s`).join(', ')}`);
    const srcVersion = cpu([BIN, '--version'], fromSource, 3);
    const srcHelp = cpu([BIN, '--help'], fromSource, 3);
    const srcSlowest = cpu([BIN, 'stage', slowest.name, '--help'], fromSource, 3);
    print(`from the sources through tsx: --version ${fmt(srcVersion)} · --help ${fmt(srcHelp)} · ${slowest.name}'s start ${fmt(srcSlowest)}`);
    print(`the build saves: --version ${(srcVersion / version).toFixed(1)}× · --help ${(srcHelp / help).toFixed(1)}× · ${slowest.name}'s start ${(srcSlowest / slowest.s).toFixed(1)}×`);
    print("targets are for an idle machine: on a loaded one, compare each row's ratio to node -e 0");
  },
};
