import type { Command } from '../../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../../core/args.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { BROKEN_GATES, brokenGate } from '../rollout/broken-gates.js';
import { DEFAULT_REHEARSAL } from '../rollout/rehearsal.js';
import { rolloutStage, type RolloutDetails } from '../rollout/stage.js';

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
  --broken-gate NAME  ask a broken gate instead of the real one (a mutant: ${BROKEN_GATES.map((g) => g.name).join(', ')});
                 the run must fail, naming the invariant it broke

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
      'broken-gate': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const seed = intOption(values, 'seed', { ...SEED_RANGE, default: Math.floor(Math.random() * 2 ** 31) });
    const pods = intOption(values, 'pods', { min: 1, max: 20, default: DEFAULT_REHEARSAL.pods });
    const sessions = intOption(values, 'sessions', { min: 1, max: 1000, default: DEFAULT_REHEARSAL.sessions });
    const broken = values['broken-gate'] === undefined ? undefined : brokenGate(values['broken-gate']);
    if (values['broken-gate'] !== undefined && !broken) throw new UsageError(`unknown --broken-gate '${values['broken-gate']}' (one of ${BROKEN_GATES.map((g) => g.name).join(', ')})`);
    const say = values.json ? (l: string) => process.stderr.write(`${l}\n`) : (l: string) => process.stdout.write(`${l}\n`);
    const report = await rolloutStage({ seed, pods, sessions, judge: true, ...(broken && { brokenGate: broken }) }, { log: say });
    if (report.status === 'not-run') {
      process.stderr.write(`fencecheck rollout: ${report.summary}\n`);
      if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return ExitCode.NotRun;
    }
    if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      const d = report.details as RolloutDetails;
      for (const v of d.violations) process.stdout.write(`  violation: ${v}\n`);
      if (d.traceFile) process.stdout.write(`  observed traces: ${d.traceFile}\n`);
      process.stdout.write(`rollout ${report.summary}\n`);
    }
    return report.status === 'passed' ? ExitCode.Ok : ExitCode.Failed;
  },
};
