import type { Command } from '../../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE } from '../../../core/args.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { stageReport } from '../../../core/stage-report.js';
import { PrometheusUnavailableError } from '../../../fleet/prometheus.js';
import { ValkeyUnavailableError } from '../../../valkey/errors.js';
import { describeFigures } from '../rollout/figures.js';
import { DEFAULT_REHEARSAL, PodStartError, rehearse } from '../rollout/rehearsal.js';
import { judgeTraces, judgementLine } from '../rollout/judge.js';
import { writeObserved } from '../../../seam/tracecheck/store.js';

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
before C. The run is recorded as observed traces of the fencing spec, one per session (every
acquire, renew-migrate, release, expiry, backfill and gate step, each with the session's keys read
in its own transaction), and judged by TLC (docs/tracecheck.md): accepted, rejected at the step
named, or not run (no Java or jar: set TLA2TOOLS_JAR), never accepted without TLC. The traces are
written to the observed folder, for \`fencecheck tracecheck --observed\`.
After C, the mode doors: a real cluster of three primaries is started, the gate asked
EnterCompatible (with a CLUSTER KEYSLOT check of a tagged pair from it), the fleet moved through
the door onto the cluster (its keys carried with their TTLs, C pods restarted on it), the gate asked
Enable and the cluster resharded live onto every primary while the pods renew; T3 checked on the
wire (no script naming an old key, none refused with CROSSSLOT).

  --seed N       the chaos and the pods' choices (default: random, printed)
  --pods N       pods per ReplicaSet (default ${DEFAULT_REHEARSAL.pods}, 1..20)
  --sessions N   sessions in the shared pool (default ${DEFAULT_REHEARSAL.sessions}, 1..1000)

Exit codes: 0 the whole migration ran and held (and TLC accepted its trace, or could not run) ·
1 a check failed, the gate never allowed a step, or TLC rejected the trace ·
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
      json: { type: 'boolean', default: false },
    });
    const seed = intOption(values, 'seed', { ...SEED_RANGE, default: Math.floor(Math.random() * 2 ** 31) });
    const pods = intOption(values, 'pods', { min: 1, max: 20, default: DEFAULT_REHEARSAL.pods });
    const sessions = intOption(values, 'sessions', { min: 1, max: 1000, default: DEFAULT_REHEARSAL.sessions });
    const startedAt = new Date().toISOString();
    const say = values.json ? (l: string) => process.stderr.write(`${l}\n`) : (l: string) => process.stdout.write(`${l}\n`);
    let result;
    try {
      result = await rehearse({ ...DEFAULT_REHEARSAL, seed, pods, sessions, say });
    } catch (err) {
      if (err instanceof PrometheusUnavailableError || err instanceof ValkeyUnavailableError || err instanceof PodStartError) {
        process.stderr.write(`fencecheck rollout: not run: ${err.message.split('\n')[0]}\n`);
        return ExitCode.NotRun;
      }
      throw err;
    }
    const f = result.figures;
    const traceFile = writeObserved(`rollout-seed-${seed}`, result.traces);
    const trace = await judgeTraces(result.traces, { log: say });
    const ok = result.ok && trace.verdict !== 'rejected';
    const d = f.doors;
    const doors = d
      ? `doors: compatible ${d.compatible ? 'allowed' : 'refused'}, enabled ${d.enabled ? 'allowed' : 'refused'} (${d.shards} shards, ${d.keysCarried} keys carried, ${d.askRedirects} ASK redirects)`
      : 'doors not reached';
    const summary = `${ok ? 'held' : 'FAILED'}: ${describeFigures(seed, f)}; ${doors}; ${judgementLine(trace)}`;
    if (values.json) {
      process.stdout.write(
        `${JSON.stringify(stageReport({ stage: 'rollout', status: ok ? 'passed' : 'failed', startedAt, durationMs: f.wallMs, summary, details: { seed, violations: result.violations, figures: f, trace, traceFile } }), null, 2)}\n`,
      );
    } else {
      for (const v of result.violations) process.stdout.write(`  violation: ${v}\n`);
      if (traceFile) process.stdout.write(`  observed traces: ${traceFile}\n`);
      process.stdout.write(`rollout ${summary}\n`);
    }
    return ok ? ExitCode.Ok : ExitCode.Failed;
  },
};
