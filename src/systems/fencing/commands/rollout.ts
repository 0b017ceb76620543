import type { Command } from '../../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../../core/args.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { stageReport } from '../../../core/stage-report.js';
import { PrometheusUnavailableError } from '../../../fleet/prometheus.js';
import { ValkeyUnavailableError } from '../../../valkey/errors.js';
import { BROKEN_GATES, brokenGate } from '../rollout/broken-gates.js';
import { describeFigures } from '../rollout/figures.js';
import { DEFAULT_REHEARSAL, PodStartError, rehearse } from '../rollout/rehearsal.js';

const HELP = `Usage: fencecheck rollout [--seed N] [--pods N] [--sessions N] [--json]

The migration rehearsal: real pod processes, each running one phase's scripts on a real Valkey
(two renewers, the reliable and the huddle lane, on a scaled 30 s / 10 s lease cadence) and serving
buzz_fencing_phase on /metrics; a real Prometheus scraping them; a controller rolling the fleet as
a Kubernetes RollingUpdate does (maxSurge 1, maxUnavailable 0) through O → A → B → backfill → drain
→ C, asking the deployment gate before every image change and the backfill with the facts it reads
for itself (Prometheus, the ReplicaSets, its deploy record, the keyspace). Seeded chaos, printed: a
pod killed with SIGKILL mid-rollout, an emergency rollback B → A (before or after the backfill) and
the backfill re-run after it. Checked all along on the real keyspace: T1 (never a live lease on both
keys of a session) and T2 (no generation issued twice), and the old-keyspace lease count observed 0
before C. Not yet: the mode doors onto a real cluster, the observed trace judged by TLC.

  --seed N       the chaos and the pods' choices (default: random, printed)
  --pods N       pods per ReplicaSet (default ${DEFAULT_REHEARSAL.pods}, 1..20)
  --sessions N   sessions in the shared pool (default ${DEFAULT_REHEARSAL.sessions}, 1..1000)
  --broken-gate NAME  ask a broken gate instead of the real one (a mutant: ${BROKEN_GATES.map((g) => g.name).join(', ')});
                 the run must fail, naming the invariant it broke

Exit codes: 0 the whole migration ran and held · 1 a check failed or the gate never allowed a step ·
2 no valkey-server or no prometheus · 64 usage · 130 Ctrl-C (pods, Prometheus, Valkey stopped by PID)`;

export const command: Command = {
  name: 'rollout',
  summary: 'rehearse the fencing migration on real pods, real Valkey and a real Prometheus, the gate asked at every step',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      seed: { type: 'string' },
      pods: { type: 'string' },
      sessions: { type: 'string' },
      'broken-gate': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const seed = intOption(values, 'seed', { ...SEED_RANGE, default: Math.floor(Math.random() * 2 ** 31) });
    const pods = intOption(values, 'pods', { min: 1, max: 20, default: DEFAULT_REHEARSAL.pods });
    const sessions = intOption(values, 'sessions', { min: 1, max: 1000, default: DEFAULT_REHEARSAL.sessions });
    const broken = values['broken-gate'] === undefined ? undefined : brokenGate(values['broken-gate']);
    if (values['broken-gate'] !== undefined && !broken) throw new UsageError(`unknown --broken-gate '${values['broken-gate']}' (one of ${BROKEN_GATES.map((g) => g.name).join(', ')})`);
    const startedAt = new Date().toISOString();
    const say = values.json ? (l: string) => process.stderr.write(`${l}\n`) : (l: string) => process.stdout.write(`${l}\n`);
    let result;
    try {
      result = await rehearse({ ...DEFAULT_REHEARSAL, seed, pods, sessions, say, ...(broken && { gate: broken.make(DEFAULT_REHEARSAL) }) });
    } catch (err) {
      if (err instanceof PrometheusUnavailableError || err instanceof ValkeyUnavailableError || err instanceof PodStartError) {
        process.stderr.write(`fencecheck rollout: not run: ${err.message.split('\n')[0]}\n`);
        return ExitCode.NotRun;
      }
      throw err;
    }
    const f = result.figures;
    const summary = `${result.ok ? 'held' : 'FAILED'}: ${describeFigures(seed, f)}`;
    if (values.json) {
      process.stdout.write(
        `${JSON.stringify(stageReport({ stage: 'rollout', status: result.ok ? 'passed' : 'failed', startedAt, durationMs: f.wallMs, summary, details: { seed, violations: result.violations, figures: f } }), null, 2)}\n`,
      );
    } else {
      for (const v of result.violations) process.stdout.write(`  violation: ${v}\n`);
      process.stdout.write(`rollout ${summary}\n`);
    }
    return result.ok ? ExitCode.Ok : ExitCode.Failed;
  },
};
