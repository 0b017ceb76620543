/**
 * The impl layer on worker processes (`mutants --layer impl --workers N`): each system's entries —
 * they share that system's rig — go to a worker of their own, `fencecheck mutants
 * --layer impl --only <ids> --workers 1 --json`, with its own Valkey; at most N run at once. The
 * packages' runs mostly wait (drills, walks, real time) or take one core (the tour), so on a 2-core
 * machine three workers finish the layer in about its longest package's time instead of the sum.
 * A worker's results are its own report's; a worker that crashes or prints no report makes its
 * entries `invalid` (said why), never a pass. Workers run in this process's group (a signal to the
 * group reaches them), and when this process ends — a signal to its PID alone, an exit — it sends
 * each running worker SIGTERM and waits for it: the worker's own end hooks stop its servers. When
 * this process dies by SIGKILL, each worker sees it gone and stops itself (src/core/parent-watchdog.ts),
 * and it carries the owner mark, so the next command's reaper ends one that could not.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MutantEntry } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';
import type { StageReport } from '../core/stage-report.js';
import { projectRoot } from '../core/project-root.js';
import { WAITING_SLOTS } from '../core/waiting-slots.js';
import { atMost } from '../core/at-most.js';
import { ownedTempDir, removeTempDir } from '../core/temp-dir.js';
import { endingSignal, onProcessEnd } from '../core/process-end.js';
import { markedEnv } from '../core/owner-mark.js';
import { watchMeEnv } from '../core/parent-watchdog.js';
import { harnessTempRoot } from '../valkey/registry.js';
import type { LayerRunOptions } from '../seam/layer-runner.js';
import { shardLabel } from '../seam/tour/shard.js';

// One more than the cores: the packages mostly wait (the init limiter's runs wait out read timeouts,
// drills wait for failovers), so a third worker on 2 cores took the layer from 91 s to 76 s.
export const DEFAULT_WORKERS = WAITING_SLOTS;

/** Entries grouped by system, the longest group first (its worker starts first), else in the entries' order. */
export function bySystem(entries: readonly MutantEntry[]): MutantEntry[][] {
  const groups = new Map<string, MutantEntry[]>();
  for (const m of entries) groups.set(m.system, [...(groups.get(m.system) ?? []), m]);
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

interface WorkerOutput {
  readonly results: MutantResult[];
}

/** Runs the impl entries on up to `workers` worker processes; results in the entries' order. */
export async function runImplOnWorkers(entries: readonly MutantEntry[], workers: number, options: LayerRunOptions): Promise<MutantResult[]> {
  const groups = bySystem(entries);
  const dir = ownedTempDir('impl-workers');
  const byId = new Map<string, MutantResult>();
  try {
    let finished = 0;
    const total = groups.length;
    options.onProgress?.(0, total, 'workers');
    await atMost(groups, workers, async (group, g) => {
      const reportFile = join(dir, `base-${g}.json`);
      const out = await runWorker(group, { ...options, reportFile });
      for (const r of out.results) byId.set(r.id, r);
      if (options.onBaseReport && existsSync(reportFile)) {
        const report = JSON.parse(readFileSync(reportFile, 'utf8')) as StageReport;
        const system = (report.details as { system?: unknown } | undefined)?.system;
        options.onBaseReport(report.stage, typeof system === 'string' ? system : group[0]!.system, report);
      }
      finished += 1;
      options.onProgress?.(finished, total, 'workers', group.map((m) => m.id).join(','));
    });
  } finally {
    removeTempDir(dir);
  }
  return entries.map(
    (m) => byId.get(m.id) ?? { id: m.id, layer: 'impl', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason: `the worker of ${m.system} reported no result for ${m.id}` },
  );
}

function runWorker(group: readonly MutantEntry[], o: LayerRunOptions & { readonly reportFile: string }): Promise<WorkerOutput> {
  const argv = [
    join(projectRoot, 'bin/fencecheck.mjs'),
    'mutants',
    '--layer',
    'impl',
    '--only',
    group.map((m) => m.id).join(','),
    '--workers',
    '1',
    '--json',
    ...(o.seed !== undefined ? ['--seed', String(o.seed)] : []),
    ...(o.numRuns !== undefined ? ['--runs', String(o.numRuns)] : []),
    ...(o.shard && o.shard.count > 1 ? ['--shard', shardLabel(o.shard)] : []),
    ...(o.onBaseReport ? ['--conform-report', o.reportFile] : []),
  ];
  const invalid = (why: string): WorkerOutput => ({ results: group.map((m) => ({ id: m.id, layer: 'impl', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason: why })) });
  // A group whose turn comes while a signal ends this process starts no worker the end would not wait for.
  const ending = endingSignal();
  if (ending !== undefined) return Promise.resolve(invalid(`not started: ${ending} is ending the layer`));
  return new Promise((resolve) => {
    // Marked as ours (a reaper finds it if this process dies by SIGKILL) and watching this process
    // (it stops itself, its servers with it, once this process is gone).
    const env = markedEnv(harnessTempRoot(), { ...process.env, FORCE_COLOR: '0', ...watchMeEnv() });
    const child = spawn(process.execPath, argv, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const unhook = onProcessEnd({
      when: 'any-signal',
      release: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        return [exited];
      },
    });
    child.once('exit', unhook);
    let stdout = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      const lines = (partial + d).split('\n');
      partial = lines.pop() ?? '';
      // The worker's own progress lines, as the layer's log (its meters are redrawn there).
      for (const l of lines) if (l.trim() !== '' && !l.includes('\r')) o.log?.(l);
    });
    child.on('error', (err) => resolve(invalid(`the worker could not start: ${err.message}`)));
    child.on('close', (code, signal) => {
      try {
        const report = JSON.parse(stdout) as StageReport;
        if (Array.isArray(report.mutants)) return resolve({ results: report.mutants });
      } catch {
        // Below: no report.
      }
      resolve(invalid(`the worker exited ${signal ?? code} without a report${partial ? `: ${partial.trim()}` : ''}`));
    });
  });
}
