import type { Command } from '../../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../../core/args.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { stageReport } from '../../../core/stage-report.js';
import { createClient, type ValkeyClient } from '../../../valkey/index.js';
import { parseEndpoint, type Endpoint } from '../../../valkey/external.js';
import { CommandTimeoutError } from '../../../valkey/errors.js';
import { maskSecrets } from '../../../core/secrets.js';
import { MODES, PHASES, type Mode, type Phase } from '../state.js';
import { loadFencingScripts } from '../scripts.js';
import { createGate } from '../gate/gate.js';
import { GATE_RULES, type GateStep } from '../gate/rules.js';
import type { GateObservations } from '../gate/observations.js';
import { clusterEnabled, discoverSessions, KeyspaceValueError, keyslotCheck, observeKeyspace, parseSession } from '../gate/observe.js';
import { SourceMalformedError, SourceUnreachableError } from '../../../fleet/sources.js';
import { readFleet, type FleetSources } from '../gate/read-fleet.js';
import { FLEET_RULES } from '../gate/fleet-rules.js';
import { applyStep, initialRecord, readRecord, writeRecord, type DeployRecord } from '../gate/record.js';
import { existsSync } from 'node:fs';

const CHECKS: Readonly<Record<string, GateStep>> = {
  advance: 'AdvanceTarget',
  backfill: 'Backfill',
  rollback: 'RollbackPhase',
  'reverse-merge': 'ReverseMerge',
  'enter-compatible': 'EnterCompatible',
  'revert-disabled': 'RevertDisabled',
  enable: 'Enable',
};

const HELP = `Usage: fencecheck gate --check ${Object.keys(CHECKS).join('|')} --url HOST:PORT
                      (--pods p1=B,p2=B,... | --metrics URL... | --prometheus URL)
                      [--replicasets FILE | --replicasets-url URL | --replicasets-cmd CMD] [--max-age SECONDS]
                      (--target O|A|B|C [--mode disabled|compatible|enabled] [--backfilled] | --record FILE [--apply])
                      [--session COMMUNITY:SESSION]... [--cluster-url HOST:PORT] [--json]
       fencecheck gate --record FILE --init-record

The deployment gate, as an operator or a deploy pipeline calls it before changing an image or a mode:
answers allowed or refused, naming every rule that refuses and why. The keyspace facts are read from
the real Valkey at --url (read-only): the live-lease census of the old and the new keyspace, both
generation counters of every session (all sessions found by SCAN unless --session is given), and the
CLUSTER KEYSLOT check of a real tagged pair before the cluster door (asked of --cluster-url, or of
--url when it is cluster-enabled).

The fleet's phases: read by the gate itself from every pod's buzz_fencing_phase{pod,phase} gauge —
scraped from each --metrics URL (a pod's /metrics) or asked of the Prometheus at --prometheus — with
the ReplicaSets in 'kubectl get rs -o json' shape (a file, the API URL, or a command); a pod not
heard from, a sample older than --max-age (default 30 s), a pod reporting two phases, ReplicaSet
counts that disagree with the pods seen, and an older ReplicaSet not at zero are refusals named by
their rule. --pods gives the phases instead (scripting, tests).

The target, the mode and the backfill record: from the deploy record --record FILE, which the gate
writes (--init-record: at O, disabled; --apply: a step allowed now is recorded, a rollback clears the
backfill record; for backfill, --apply after the merge ran), or given by --target/--mode/--backfilled.

Rules: ${[...FLEET_RULES.map((r) => r.name), ...GATE_RULES.map((r) => r.name)].join(', ')}

Exit codes: 0 allowed · 1 refused · 2 Valkey, a pod, Prometheus, the ReplicaSet source or the record
not reachable (never "allowed"), or not a Valkey (no RESP) · 3 a fencing key holds the wrong type or a
malformed value, or exposition text, JSON or the record is malformed (the source is named) · 64 usage`;

function parsePods(text: string): Record<string, Phase> {
  const out: Record<string, Phase> = {};
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [pod, phase] = part.split('=');
    if (!pod || !phase || !(PHASES as readonly string[]).includes(phase)) throw new UsageError(`--pods takes pod=phase pairs (phase O|A|B|C), got '${part}'`);
    out[pod] = phase as Phase;
  }
  if (Object.keys(out).length === 0) throw new UsageError('--pods names no pod');
  return out;
}

function endpointOf(url: string): Endpoint {
  try {
    return parseEndpoint(url);
  } catch (err) {
    throw new UsageError(maskSecrets((err as Error).message));
  }
}

function connect(url: string): ValkeyClient {
  // Credentials from redis://user:pass@host:port; every command times out (FENCECHECK_COMMAND_TIMEOUT_MS).
  return createClient({ kind: 'standalone', ...endpointOf(url) });
}

/**
 * --url may name any node of a cluster: the census and the counters are then read through a cluster
 * client seeded with that node (every primary SCANned, every key read where its slot lives), never
 * through the one node, whose MOVED replies would otherwise end the run.
 */
function clusterReader(url: string): ValkeyClient {
  const { host, port, ...credentials } = endpointOf(url);
  return createClient({ kind: 'cluster', seeds: [{ host, port }], ...credentials });
}

/** The endpoint answered with something that is not RESP (an HTTP server, a TLS port, …). */
class NotRespError extends Error {
  override readonly name = 'NotRespError';
}

const NOT_RESP = /Unknown RESP type \d+ ("[^"]*")|Protocol error, got ("[^"]*")/i;

/** The client's parser error for a reply that is not RESP, as one plain sentence; else undefined. */
function notResp(err: unknown): NotRespError | undefined {
  const m = NOT_RESP.exec(err instanceof Error ? err.message : String(err));
  if (!m) return undefined;
  return new NotRespError(`it does not answer in RESP (the reply began with ${m[1] ?? m[2]}): not a Valkey server`);
}

/**
 * Rejects once either connection meets a reply that is not RESP: ioredis then drops the queue and
 * reconnects, so without this the gate would wait for the command timeout and blame silence.
 */
function protocolFailure(conns: readonly ValkeyClient[]): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    for (const c of conns) {
      c.on('error', (err: unknown) => {
        const e = notResp(err);
        if (e) reject(e);
      });
    }
  });
  failed.catch(() => {}); // observed through Promise.race only
  return failed;
}

/** A failure of the connection, not of the gate: the endpoint is down, silent, or refuses us. */
function unreachable(err: unknown): boolean {
  if (err instanceof CommandTimeoutError) return true;
  const msg = err instanceof Error ? err.message : String(err);
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ECONNRESET|Connection is closed|max retries per request|timed out|NOAUTH|WRONGPASS|NOPERM/i.test(msg);
}

/**
 * A deploy fact that could not be read (exit 2: never a decision) or is malformed (exit 3, the source
 * named): one line on stderr, and the JSON report when asked. undefined for any other error.
 */
function sourceFailure(err: unknown, json?: { startedAt: string; started: number }): ExitCode | undefined {
  if (!(err instanceof SourceUnreachableError || err instanceof SourceMalformedError)) return undefined;
  const bad = err instanceof SourceMalformedError;
  const line = bad ? `bad input: ${maskSecrets(err.message)}` : `not run: ${maskSecrets(err.message)}`;
  process.stderr.write(`fencecheck gate: ${line}\n`);
  if (json)
    process.stdout.write(
      `${JSON.stringify(stageReport({ stage: 'gate', status: 'not-run', reason: line, startedAt: json.startedAt, durationMs: Date.now() - json.started, summary: bad ? 'a deploy fact is malformed' : 'a deploy fact could not be read' }), null, 2)}\n`,
    );
  return bad ? ExitCode.BadInput : ExitCode.NotRun;
}

/** Only the pods that report exactly one phase; the fleet rules refuse when any reports none or two. */
function podPhasesOf(pods: Readonly<Record<string, readonly Phase[]>>): Record<string, Phase> {
  return Object.fromEntries(Object.entries(pods).flatMap(([p, ps]) => (ps.length === 1 ? [[p, ps[0]!]] : [])));
}

/** Where the fleet's facts come from, from the flags; undefined when --pods gives the phases. */
function fleetSources(values: {
  pods?: string;
  metrics?: string[];
  prometheus?: string;
  replicasets?: string;
  'replicasets-url'?: string;
  'replicasets-cmd'?: string;
  'max-age'?: string;
}): FleetSources | undefined {
  const phaseSources = [values.pods !== undefined, (values.metrics ?? []).length > 0, values.prometheus !== undefined].filter(Boolean).length;
  if (phaseSources === 0) throw new UsageError("the pods' phases are required: --pods, --metrics URL... or --prometheus URL");
  if (phaseSources > 1) throw new UsageError("give the pods' phases one way: --pods, --metrics or --prometheus");
  const rsFlags = (['replicasets', 'replicasets-url', 'replicasets-cmd'] as const).filter((f) => values[f] !== undefined);
  if (rsFlags.length > 1) throw new UsageError('give the ReplicaSets one way: --replicasets, --replicasets-url or --replicasets-cmd');
  if (values.pods !== undefined) {
    if (rsFlags.length > 0 || values['max-age'] !== undefined) throw new UsageError(`--${rsFlags[0] ?? 'max-age'} goes with --metrics or --prometheus, not --pods`);
    return undefined;
  }
  if (rsFlags.length === 0) throw new UsageError('reading the fleet needs its ReplicaSets: --replicasets FILE, --replicasets-url URL or --replicasets-cmd CMD');
  const url = (flag: string, u: string) => {
    if (!/^https?:\/\/[^/\s]+/.test(u)) throw new UsageError(`${flag} takes an http:// or https:// URL, got '${u}'`);
    return u;
  };
  const maxAgeMs = intOption(values, 'max-age', { min: 1, max: 86_400, default: 30 }) * 1000;
  const rs = rsFlags[0]!;
  return {
    phases: values.prometheus !== undefined ? { kind: 'prometheus', url: url('--prometheus', values.prometheus) } : { kind: 'metrics', urls: values.metrics!.map((u) => url('--metrics', u)) },
    replicaSets:
      rs === 'replicasets'
        ? { kind: 'file', path: values.replicasets! }
        : rs === 'replicasets-url'
          ? { kind: 'url', url: url('--replicasets-url', values['replicasets-url']!) }
          : { kind: 'command', command: values['replicasets-cmd']! },
    maxAgeMs,
  };
}

export const command: Command = {
  name: 'gate',
  summary: 'ask the deployment gate: is this phase or mode step allowed, and why not',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      check: { type: 'string' },
      url: { type: 'string' },
      'cluster-url': { type: 'string' },
      target: { type: 'string' },
      pods: { type: 'string' },
      mode: { type: 'string', default: 'disabled' },
      backfilled: { type: 'boolean', default: false },
      session: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      metrics: { type: 'string', multiple: true },
      prometheus: { type: 'string' },
      replicasets: { type: 'string' },
      'replicasets-url': { type: 'string' },
      'replicasets-cmd': { type: 'string' },
      'max-age': { type: 'string' },
      record: { type: 'string' },
      'init-record': { type: 'boolean', default: false },
      apply: { type: 'boolean', default: false },
    });
    if (values['init-record']) {
      if (!values.record) throw new UsageError('--init-record needs --record FILE');
      if (values.check !== undefined) throw new UsageError('--init-record creates the record; ask the gate in a second call');
      if (existsSync(values.record)) {
        try {
          readRecord(values.record); // an existing record is kept, once it reads
        } catch (err) {
          const code = sourceFailure(err);
          if (code === undefined) throw err;
          return code;
        }
        process.stdout.write(`deploy record ${values.record} kept as it is\n`);
      } else {
        writeRecord(values.record, initialRecord());
        process.stdout.write(`deploy record ${values.record} created: target O, mode disabled, backfill not run\n`);
      }
      return ExitCode.Ok;
    }
    const step = values.check !== undefined ? CHECKS[values.check] : undefined;
    if (!step) throw new UsageError(`--check is one of ${Object.keys(CHECKS).join(', ')}`);
    if (!values.url) throw new UsageError('--url is required');
    const fleet = fleetSources(values);
    if (values.record !== undefined) {
      if (values.target !== undefined || values.backfilled || argv.some((a) => a === '--mode' || a.startsWith('--mode=')))
        throw new UsageError('--record reads the target, the mode and the backfill record: give it or --target/--mode/--backfilled, not both');
    } else {
      if (values.apply) throw new UsageError('--apply records the step in the deploy record: it needs --record FILE');
      if (!values.target || !(PHASES as readonly string[]).includes(values.target)) throw new UsageError('--target is one of O, A, B, C (or --record FILE)');
      if (!(MODES as readonly string[]).includes(values.mode!)) throw new UsageError(`--mode is one of ${MODES.join(', ')}`);
    }
    const givenPods = values.pods !== undefined ? parsePods(values.pods) : undefined;
    let sessions;
    try {
      sessions = (values.session ?? []).map(parseSession);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const startedAt = new Date().toISOString();
    const started = Date.now();
    // The deploy facts first: a fleet or a record that cannot be read is never a decision.
    let record: DeployRecord | undefined;
    let fleetObs;
    try {
      record = values.record !== undefined ? readRecord(values.record) : undefined;
      fleetObs = fleet ? await readFleet(fleet) : undefined;
    } catch (err) {
      const code = sourceFailure(err, values.json ? { startedAt, started } : undefined);
      if (code === undefined) throw err;
      return code;
    }
    const podPhases = givenPods ?? podPhasesOf(fleetObs!.pods);
    const conn = connect(values.url);
    const clusterNode = values['cluster-url'] ? connect(values['cluster-url']) : undefined;
    const protocol = protocolFailure(clusterNode ? [conn, clusterNode] : [conn]);
    let reader: ValkeyClient = conn;
    try {
      const obs = await Promise.race([
        protocol,
        (async (): Promise<GateObservations> => {
          const clustered = await clusterEnabled(conn);
          if (clustered) reader = clusterReader(values.url!);
          const found = sessions.length > 0 ? sessions : await discoverSessions(reader);
          const ks = await observeKeyspace(reader, loadFencingScripts(), found);
          const slotNode = clusterNode ?? (clustered ? conn : undefined);
          const probe = found[0] ?? { community: 'fencecheck', session: 'probe' };
          return {
            podPhases,
            target: record?.target ?? (values.target as Phase),
            mode: record?.mode ?? (values.mode as Mode),
            backfilled: record?.backfilled ?? values.backfilled ?? false,
            oldLeaseCensus: ks.oldLeaseCensus,
            newLeaseCensus: ks.newLeaseCensus,
            counters: ks.counters,
            keyslot: slotNode ? await keyslotCheck(slotNode, probe) : null,
            ...(fleetObs && { fleet: fleetObs }),
          };
        })(),
      ]);
      const found = obs.counters;
      const decision = createGate().decide(step, obs);
      if (decision.allowed && values.apply && record && values.record) writeRecord(values.record, applyStep(record, step));
      const summary = decision.allowed
        ? `${step} allowed (${decision.checked.length} rules held; ${found.length} session(s) observed)`
        : `${step} refused: ${decision.refusedBy.map((r) => `${r.rule}: ${r.reason}`).join('; ')}`;
      if (values.json) {
        const report = stageReport({ stage: 'gate', status: decision.allowed ? 'passed' : 'failed', startedAt, durationMs: Date.now() - started, summary, details: { decision, observations: obs } });
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        process.stdout.write(`${decision.allowed ? 'allowed' : 'refused'}: ${summary}\n`);
        process.stdout.write(
          `  observed: old-keyspace leases ${obs.oldLeaseCensus}, new-keyspace leases ${obs.newLeaseCensus}, sessions ${found.length}, keyslot ${obs.keyslot ? obs.keyslot.slots.join('/') : 'not checked'}\n`,
        );
      }
      return decision.allowed ? ExitCode.Ok : ExitCode.Failed;
    } catch (caught) {
      const err: unknown = caught instanceof NotRespError ? caught : (notResp(caught) ?? caught);
      const msg = maskSecrets(err instanceof Error ? err.message : String(err));
      if (err instanceof KeyspaceValueError) {
        // Bad input, not a refusal: one line naming the key, no stack, no script source.
        const line = `bad input: ${msg}`;
        process.stderr.write(`fencecheck gate: ${line}\n`);
        if (values.json)
          process.stdout.write(
            `${JSON.stringify(stageReport({ stage: 'gate', status: 'not-run', reason: line, startedAt, durationMs: Date.now() - started, summary: `bad keyspace value at ${err.key}` }), null, 2)}\n`,
          );
        return ExitCode.BadInput;
      }
      if (err instanceof NotRespError || unreachable(err)) {
        process.stderr.write(`fencecheck gate: not run: cannot read ${maskSecrets(values.url)}: ${msg}\n`);
        if (values.json)
          process.stdout.write(
            `${JSON.stringify(stageReport({ stage: 'gate', status: 'not-run', reason: `cannot read ${maskSecrets(values.url)}: ${msg}`, startedAt, durationMs: Date.now() - started, summary: 'Valkey not reachable' }), null, 2)}\n`,
          );
        return ExitCode.NotRun;
      }
      throw err;
    } finally {
      // Read-only: nothing is pending, so drop the connections (a quit to a dead server never answers).
      conn.disconnect();
      if (reader !== conn) reader.disconnect();
      clusterNode?.disconnect();
    }
  },
};
