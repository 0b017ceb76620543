import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode, signalExitCode } from '../../core/exit-codes.js';
import { stageReport, type StageStatus } from '../../core/stage-report.js';
import { closeClient, createClient, describeSpec, startTopology, ValkeyUnavailableError, type Topology, type TopologySpec } from '../../valkey/index.js';
import { isAlive, listRecords, ownerAlive, reapOrphans } from '../../valkey/registry.js';
import { isProviderChoice } from '../../valkey/start.js';
import { TIMED_OUT, withTimeout } from '../../valkey/wait.js';

const HELP = `Usage: fencecheck topology start [--kind standalone|cluster] [--shards N] [--replicas R]
                                [--provider auto|native|testcontainers|external] [--node-timeout MS]
                                [--hold SECONDS] [--json]
       fencecheck topology status [--json]
       fencecheck topology reap [--json]

start   starts a topology, prints its nodes, and keeps it running until Ctrl-C (or SIGTERM, or
        --hold SECONDS have passed), then stops every node by PID. Default: standalone; with
        --kind cluster, 3 shards and no replicas unless --shards/--replicas say otherwise.
status  lists every valkey-server fencecheck processes on this machine started and have not
        stopped (the registry), with its owner process and whether it answers.
reap    stops recorded servers whose owner process is dead (a crashed or SIGKILLed run), only
        after checking each is still the harness's valkey-server (see docs/valkey.md, Process
        hygiene); refuses (exit 2) a registry folder that is not ours with mode 700.

Options:
  --kind K            standalone (default) or cluster
  --shards N          primaries of a cluster (default 3; 1 = one shard owning all 16384 slots)
  --replicas R        replicas per shard (default 0)
  --provider P        auto (default: external env, then Docker, then native), native, testcontainers, external
  --node-timeout MS   cluster-node-timeout for nodes fencecheck starts (default 2000)
  --hold SECONDS      stop after this long instead of waiting for Ctrl-C (0 = stop at once)
  --json              print a fencecheck.stage/1 report (start: once the topology is up)

Exit codes: 0 ok · 1 status found a recorded server that does not answer · 2 could not start
(no valkey-server, no Docker for --provider testcontainers, external endpoint unreachable; an unsafe
registry folder) · 64 usage · 130/143/129 start stopped by SIGINT/SIGTERM/SIGHUP (its nodes stopped first)`;

function print(json: boolean, status: StageStatus, startedAt: Date, summary: string, details: unknown, text: string, reason?: string): void {
  if (json) {
    const r = stageReport({
      stage: 'topology',
      status,
      ...(reason !== undefined ? { reason } : {}),
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      summary,
      details,
    });
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  } else {
    if (text) process.stdout.write(text);
    if (reason !== undefined) process.stderr.write(`fencecheck topology: ${status === 'not-run' ? 'not run' : status}: ${reason}\n`);
  }
}

function nodeTable(t: Topology): string {
  const lines = t.nodes.map((n) => `  ${n.role.padEnd(8)} ${n.host}:${n.port}${n.pid !== undefined ? `  pid ${n.pid}` : ''}`);
  const seeds = t.nodes
    .filter((n) => n.role === 'primary')
    .map((n) => `${n.host}:${n.port}`)
    .join(',');
  const env = t.spec.kind === 'standalone' ? `FENCECHECK_VALKEY_URL=redis://${seeds}` : `FENCECHECK_VALKEY_CLUSTER=${seeds}`;
  return `${describeSpec(t.spec)} (${t.provider}${t.owned ? '' : `, not owned, key prefix ${t.keyPrefix}`})\n${lines.join('\n')}\nuse it from another shell: ${env}\n`;
}

async function start(argv: readonly string[]): Promise<ExitCode> {
  const startedAt = new Date();
  const { values } = parseCommandArgs(argv, {
    kind: { type: 'string', default: 'standalone' },
    shards: { type: 'string' },
    replicas: { type: 'string' },
    provider: { type: 'string' },
    'node-timeout': { type: 'string' },
    hold: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  if (values.kind !== 'standalone' && values.kind !== 'cluster') throw new UsageError(`--kind is standalone or cluster, not '${values.kind}'`);
  const shards = intOption(values, 'shards', { min: 1, max: 64 });
  const replicas = intOption(values, 'replicas', { min: 0, max: 8 });
  const nodeTimeoutMs = intOption(values, 'node-timeout', { min: 100, max: 600_000 });
  const hold = intOption(values, 'hold', { min: 0 });
  if (values.kind === 'standalone' && (shards !== undefined || replicas !== undefined)) throw new UsageError('--shards/--replicas need --kind cluster');
  if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`unknown provider '${values.provider}'`);
  const spec: TopologySpec = values.kind === 'standalone' ? { kind: 'standalone' } : { kind: 'cluster', shards: shards ?? 3, ...(replicas ? { replicasPerShard: replicas } : {}) };

  let topo: Topology;
  try {
    topo = await startTopology(spec, {
      ...(values.provider !== undefined && isProviderChoice(values.provider) ? { provider: values.provider } : {}),
      ...(nodeTimeoutMs !== undefined ? { nodeTimeoutMs } : {}),
    });
  } catch (err) {
    if (err instanceof ValkeyUnavailableError || err instanceof RangeError) {
      print(values.json, 'not-run', startedAt, `${describeSpec(spec)}: could not start`, { spec }, '', err.message);
      return ExitCode.NotRun;
    }
    throw err;
  }
  const details = { spec, provider: topo.provider, owned: topo.owned, keyPrefix: topo.keyPrefix, nodes: topo.nodes };
  print(values.json, 'passed', startedAt, `${describeSpec(spec)} up with ${topo.nodes.length} node(s)`, details, nodeTable(topo));
  let signal: StopSignal | null = null;
  if (hold !== 0) {
    if (hold === undefined && !values.json) process.stdout.write('running; Ctrl-C stops it\n');
    signal = await waitForStop(hold);
  }
  await topo.stop();
  if (!values.json) process.stdout.write('stopped\n');
  // Stopped by a signal: exit as the shell expects (130 SIGINT, 143 SIGTERM, 129 SIGHUP); by --hold: 0.
  return signal === null ? ExitCode.Ok : signalExitCode(signal);
}

type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Resolves with the signal on SIGINT/SIGTERM/SIGHUP, or with null after `seconds` when given. */
function waitForStop(seconds: number | undefined): Promise<StopSignal | null> {
  return new Promise((resolve) => {
    const timer = seconds !== undefined ? setTimeout(() => done(null), seconds * 1000) : setInterval(() => {}, 1 << 30);
    const sigs = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const handlers = sigs.map((s) => [s, () => done(s)] as const);
    function done(sig: StopSignal | null) {
      clearTimeout(timer);
      for (const [s, h] of handlers) process.removeListener(s, h);
      resolve(sig);
    }
    for (const [s, h] of handlers) process.on(s, h);
  });
}

async function status(argv: readonly string[]): Promise<ExitCode> {
  const startedAt = new Date();
  const { values } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } });
  let records: ReturnType<typeof listRecords>;
  try {
    records = listRecords();
  } catch (err) {
    if (!(err instanceof ValkeyUnavailableError)) throw err;
    print(values.json, 'not-run', startedAt, 'the process registry is not safe to read', {}, '', err.message);
    return ExitCode.NotRun;
  }
  const rows = await Promise.all(
    records.map(async (r) => {
      let answer = 'no answer';
      if (isAlive(r.pid)) {
        const c = createClient({ kind: 'standalone', host: '127.0.0.1', port: r.port });
        try {
          const reply = await withTimeout(c.call('ROLE'), 2000);
          const role = reply === TIMED_OUT ? null : (reply as unknown[]);
          if (role) {
            const info = await c.info('cluster');
            const cluster = /cluster_enabled:1/.test(info) ? ` cluster ${/cluster_state:(\w+)/.exec(String(await c.call('CLUSTER', 'INFO')))?.[1] ?? '?'}` : ' standalone';
            answer = `${String(role[0])}${cluster}`;
          }
        } catch (err) {
          answer = `error: ${(err as Error).message}`;
        } finally {
          await closeClient(c);
        }
      }
      return { ...r, ownerAlive: ownerAlive(r), answer };
    }),
  );
  const silent = rows.filter((r) => r.answer === 'no answer' || r.answer.startsWith('error'));
  const text =
    rows.length === 0
      ? 'no valkey-server started by fencecheck is running\n'
      : rows.map((r) => `  pid ${String(r.pid).padEnd(8)} 127.0.0.1:${String(r.port).padEnd(6)} owner ${r.ownerPid}${r.ownerAlive ? '' : ' (dead: reap it)'}  ${r.answer}\n`).join('');
  const st: StageStatus = silent.length > 0 ? 'failed' : 'passed';
  print(values.json, st, startedAt, `${rows.length} recorded valkey-server(s), ${silent.length} not answering`, { servers: rows }, text);
  return silent.length > 0 ? ExitCode.Failed : ExitCode.Ok;
}

async function reap(argv: readonly string[]): Promise<ExitCode> {
  const startedAt = new Date();
  const { values } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } });
  let killed: number[];
  try {
    killed = reapOrphans();
  } catch (err) {
    // An unsafe registry root (not ours, not private, a symlink): refused, nothing acted on.
    if (!(err instanceof ValkeyUnavailableError)) throw err;
    print(values.json, 'not-run', startedAt, 'reaped nothing: the process registry is not safe to act on', { killed: [] }, '', err.message);
    return ExitCode.NotRun;
  }
  print(
    values.json,
    'passed',
    startedAt,
    `reaped ${killed.length} orphaned valkey-server(s)`,
    { killed },
    `reaped ${killed.length} orphaned valkey-server(s)${killed.length ? `: ${killed.join(', ')}` : ''}\n`,
  );
  return ExitCode.Ok;
}

export const command: Command = {
  name: 'topology',
  summary: 'start / inspect the Valkey topologies the harness runs on',
  help: HELP,
  async run(argv) {
    const [sub, ...rest] = argv;
    switch (sub) {
      case 'start':
        return start(rest);
      case 'status':
        return status(rest);
      case 'reap':
        return reap(rest);
      default:
        throw new UsageError(sub === undefined ? 'give a subcommand: start, status or reap' : `unknown subcommand '${sub}' (start, status, reap)`);
    }
  },
};
