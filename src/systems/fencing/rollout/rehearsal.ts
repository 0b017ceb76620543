/**
 * The migration rehearsal: a fleet of real pod processes (pod.ts) on real Valkey, scraped by a real
 * Prometheus, rolled the way a Kubernetes RollingUpdate rolls a Deployment (maxSurge 1,
 * maxUnavailable 0: one new pod up, then one old pod stopped, ReplicaSets with counts) through
 * O → A → B → backfill → drain → C, asking the gate before every image change and the backfill
 * with the facts the gate reads for itself (Prometheus, the ReplicaSets as kubectl prints them, the
 * deploy record it writes, the keyspace). Seeded chaos: a pod killed with SIGKILL mid-rollout (its
 * ReplicaSet starts a replacement), an emergency rollback per the matrix at a random point, and the
 * backfill re-run after it. Checked all along on the real keyspace: T1 (never a live lease on both
 * keys of a session), T2 (no generation issued twice for a session, every pod's issues increasing),
 * and the old-keyspace lease count the gate observed 0 before C.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../core/project-root.js';
import { ownedTempDir, removeTempDir } from '../../../core/temp-dir.js';
import { mulberry32 } from '../../../core/random.js';
import { startTopology, type Topology, type ValkeyClient } from '../../../valkey/index.js';
import { freeLoopbackPort } from '../../../valkey/ports.js';
import { delay } from '../../../valkey/wait.js';
import { evalScript } from '../../../valkey/scripts/index.js';
import { startPrometheus, type PrometheusServer } from '../../../fleet/prometheus.js';
import { spawnRecorded, type RecordedChild } from '../../../fleet/recorded-child.js';
import { askGate } from '../gate/ask.js';
import type { Gate } from '../gate/gate.js';
import type { FleetSources } from '../gate/read-fleet.js';
import { applyStep, initialRecord, readRecord, writeRecord } from '../gate/record.js';
import type { GateStep } from '../gate/rules.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import { loadFencingScripts, type FencingScripts } from '../scripts.js';
import { decodeLease } from '../encoding.js';
import type { Phase } from '../state.js';

export interface RehearsalOptions {
  readonly seed: number;
  /** Pods per ReplicaSet (the Deployment's replicas). */
  readonly pods: number;
  /** Sessions in the shared pool. */
  readonly sessions: number;
  /** The lease TTL and the renew period: the relay's 30 s / 10 s, scaled. */
  readonly ttlMs: number;
  readonly renewMs: number;
  readonly scrapeMs: number;
  /** How long the gate may keep refusing one step before the run fails. */
  readonly stepTimeoutMs: number;
  /** The gate the controller asks (a broken one, for a mutant); the real one by default. */
  readonly gate?: Gate;
  readonly say?: (line: string) => void;
}

export const DEFAULT_REHEARSAL: Omit<RehearsalOptions, 'seed'> = { pods: 3, sessions: 8, ttlMs: 600, renewMs: 200, scrapeMs: 250, stepTimeoutMs: 60_000 };

export interface RehearsalFigures {
  podsStarted: number;
  sessions: number;
  generationsIssued: number;
  steps: string[];
  refusalsByRule: Record<string, number>;
  chaos: string[];
  oldCensusBeforeC: number | null;
  keyspaceReads: number;
  /** Leases a B pod moved from the old key to the new one on renew (handed over from A pods). */
  migrations: number;
  wallMs: number;
}

export interface RehearsalResult {
  readonly ok: boolean;
  readonly violations: readonly string[];
  readonly figures: RehearsalFigures;
}

interface RunningPod {
  readonly name: string;
  readonly proc: RecordedChild;
  readonly address: string;
}

interface ReplicaSetState {
  readonly name: string;
  readonly revision: number;
  readonly phase: Phase;
  desired: number;
  readonly pods: RunningPod[];
}

/** A pod process could not start (its runtime is missing or broken): the rehearsal could not run (exit 2). */
export class PodStartError extends Error {
  override readonly name = 'PodStartError';
}

// The pod's TypeScript source, from the checkout (not beside this module: the CLI may run a compiled copy of it from .build/).
const POD_MAIN = join(projectRoot, 'src/systems/fencing/rollout/pod.ts');
const TSX = import.meta.resolve('tsx');

export async function rehearse(opts: RehearsalOptions): Promise<RehearsalResult> {
  const say = opts.say ?? (() => {});
  const rand = mulberry32(opts.seed);
  // Hand-overs come at times the seed does not fix: their own stream, so the chaos replays.
  const handRand = mulberry32(opts.seed ^ 0x5eed);
  const started = Date.now();
  const violations: string[] = [];
  const figures: RehearsalFigures = {
    podsStarted: 0,
    sessions: opts.sessions,
    generationsIssued: 0,
    steps: [],
    refusalsByRule: {},
    chaos: [],
    oldCensusBeforeC: null,
    keyspaceReads: 0,
    migrations: 0,
    wallMs: 0,
  };
  const issued = new Map<string, Set<number>>();
  const lastByOwner = new Map<string, number>();
  const sets: ReplicaSetState[] = [];
  /**
   * A stopping pod's session moves, with its owner and generation, to a running pod of the newest
   * ReplicaSet at once (as a tunnel reconnects to another relay): there it is renewed — by a B pod,
   * renew-migrated off the old key.
   */
  const handOver = (line: string) => {
    const newest = sets.at(-1)?.pods ?? [];
    const to = newest[Math.floor(handRand() * newest.length)];
    if (to)
      void fetch(`http://${to.address}/adopt`, { method: 'POST', body: line }).then(
        (r) => r.arrayBuffer(),
        () => {},
      );
  };
  let topo: Topology | undefined;
  let conn: ValkeyClient | undefined;
  let prom: PrometheusServer | undefined;
  let dir: string | undefined;
  let watching = true;
  let watcher: Promise<void> | undefined;
  try {
    topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    conn = topo.client();
    const node = topo.nodes[0]!;
    const scripts = loadFencingScripts();
    dir = ownedTempDir('rollout');
    const recordPath = join(dir, 'deploy-record.json');
    const rsPath = join(dir, 'replicasets.json');
    writeRecord(recordPath, initialRecord());
    prom = await startPrometheus({ scrapeIntervalMs: opts.scrapeMs, targets: [] });
    const fleet: FleetSources = { phases: { kind: 'prometheus', url: prom.url }, replicaSets: { kind: 'file', path: rsPath }, maxAgeMs: Math.max(1000, opts.scrapeMs * 8) };
    say(
      `rollout: seed ${opts.seed}: Valkey ${node.host}:${node.port}, Prometheus ${prom.url}, ${opts.pods} pods per ReplicaSet, ${opts.sessions} sessions, TTL ${opts.ttlMs} ms, renew ${opts.renewMs} ms`,
    );

    const publish = () => {
      const items = sets.map((r) => ({
        kind: 'ReplicaSet',
        metadata: { name: r.name, annotations: { 'deployment.kubernetes.io/revision': String(r.revision) } },
        spec: { replicas: r.desired, template: { spec: { containers: [{ name: 'relay', image: `relay:phase-${r.phase}` }] } } },
        status: { replicas: r.pods.length },
      }));
      writeFileSync(rsPath, JSON.stringify({ kind: 'ReplicaSetList', items }));
      prom!.setTargets(sets.flatMap((r) => r.pods.map((p) => ({ address: p.address, labels: { pod: p.name } }))));
    };

    let podSeq = 0;
    const startPod = async (rs: ReplicaSetState): Promise<RunningPod> => {
      const name = `${rs.name}-${(podSeq++).toString(36).padStart(4, '0')}`;
      const port = await freeLoopbackPort();
      const args = [
        '--import',
        TSX,
        POD_MAIN,
        '--valkey',
        `${node.host}:${node.port}`,
        '--phase',
        rs.phase,
        '--name',
        name,
        '--sessions',
        String(opts.sessions),
        '--ttl',
        String(opts.ttlMs),
        '--renew',
        String(opts.renewMs),
        '--seed',
        String(Math.floor(rand() * 2 ** 31)),
      ];
      const proc = spawnRecorded(process.execPath, args, port);
      figures.podsStarted++;
      const ready = new Promise<void>((resolve, reject) => {
        let buf = '';
        proc.child.stdout!.on('data', (d: Buffer) => {
          buf += d.toString();
          let i: number;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            let ev: { ev?: string; session?: string; gen?: number; pod?: string; lane?: string; owner?: string; message?: string };
            try {
              ev = JSON.parse(line);
            } catch {
              continue;
            }
            if (ev.ev === 'ready') resolve();
            else if (ev.ev === 'issued') onIssued(ev.session!, ev.gen!, `${ev.pod}/${ev.lane}`);
            else if (ev.ev === 'handoff') handOver(`${ev.owner}|${ev.session}|${ev.gen}`);
            else if (ev.ev === 'migrated') figures.migrations++;
            else if (ev.ev === 'error' && /^migrated /.test(ev.message ?? '')) violations.push(`T2: ${ev.pod}: ${ev.message}`);
          }
        });
        void proc.exited.then((code) => reject(new PodStartError(`pod ${name} exited (${code}) before it was ready: ${proc.logTail().trim().split('\n').at(-1) ?? ''}`)));
      });
      await ready;
      const pod = { name, proc, address: `127.0.0.1:${port}` };
      rs.pods.push(pod);
      return pod;
    };

    const onIssued = (session: string, gen: number, owner: string) => {
      figures.generationsIssued++;
      const seen = issued.get(session) ?? new Set<number>();
      if (seen.has(gen)) violations.push(`T2: generation ${gen} of ${session} issued twice (again to ${owner})`);
      seen.add(gen);
      issued.set(session, seen);
      const last = lastByOwner.get(`${owner}@${session}`);
      if (last !== undefined && gen <= last) violations.push(`T2: ${owner} was issued ${gen} for ${session} after ${last}`);
      lastByOwner.set(`${owner}@${session}`, gen);
    };

    // T1 on the real keyspace, all along: never a live lease on both keys of one session.
    const sessions: SessionRef[] = Array.from({ length: opts.sessions }, (_, i) => ({ community: 'rehearsal', session: `s${i}` }));
    const reader = topo.client();
    watcher = (async () => {
      while (watching) {
        try {
          const keys = sessions.flatMap((s) => [sessionKeys(s).oldLease, sessionKeys(s).newLease]);
          const vals = await reader.mget(...keys);
          figures.keyspaceReads++;
          sessions.forEach((s, i) => {
            const o = decodeLease(vals[2 * i] ?? null);
            const n = decodeLease(vals[2 * i + 1] ?? null);
            if (o && n) violations.push(`T1: ${s.community}:${s.session} has live leases on both keys: old ${o.owner}:${o.gen}, new ${n.owner}:${n.gen}`);
          });
        } catch {
          /* a read lost to the teardown */
        }
        await delay(50);
      }
      reader.disconnect();
    })();

    const ask = async (step: GateStep): Promise<boolean> => {
      const deadline = Date.now() + opts.stepTimeoutMs;
      let last = '';
      for (;;) {
        const { decision, obs } = await askGate(step, { conn: conn!, scripts, fleet, recordPath, ...(opts.gate && { gate: opts.gate }) }).catch((err: Error) => ({
          decision: { allowed: false, refusedBy: [{ rule: 'Source', reason: err.message }] },
          obs: undefined,
        }));
        if (decision.allowed) {
          const rec = readRecord(recordPath);
          if (step === 'AdvanceTarget' && rec.target === 'B') figures.oldCensusBeforeC = obs!.oldLeaseCensus;
          writeRecord(recordPath, applyStep(rec, step));
          figures.steps.push(`${step} → target ${readRecord(recordPath).target}`);
          say(`rollout: gate allowed ${step} (target now ${readRecord(recordPath).target})`);
          return true;
        }
        for (const r of decision.refusedBy) figures.refusalsByRule[r.rule] = (figures.refusalsByRule[r.rule] ?? 0) + 1;
        last = decision.refusedBy.map((r) => `${r.rule}: ${r.reason}`).join('; ');
        if (Date.now() > deadline) {
          violations.push(`the gate never allowed ${step} within ${opts.stepTimeoutMs} ms: ${last}`);
          return false;
        }
        await delay(opts.scrapeMs);
      }
    };

    let revision = 0;
    const newSet = (phase: Phase): ReplicaSetState => {
      revision++;
      const rs: ReplicaSetState = { name: `relay-${revision}`, revision, phase, desired: 0, pods: [] };
      sets.push(rs);
      return rs;
    };
    /** RollingUpdate, maxSurge 1, maxUnavailable 0; `killAt`: after which surge a pod is killed with SIGKILL. */
    const roll = async (phase: Phase, killAt: number | undefined) => {
      const olds = sets.filter((r) => r.pods.length > 0 || r.desired > 0);
      const rs = newSet(phase);
      rs.desired = opts.pods;
      say(`rollout: RollingUpdate to ${rs.name} (phase ${phase})`);
      for (let i = 0; rs.pods.length < opts.pods; i++) {
        await startPod(rs);
        publish();
        const old = olds.find((r) => r.pods.length > 0);
        if (old) {
          const p = old.pods.shift()!;
          old.desired = Math.max(0, old.desired - 1);
          await p.proc.stop();
          publish();
        }
        if (i === killAt) {
          const victims = sets.flatMap((r) => r.pods.map((p) => [r, p] as const));
          const [vr, victim] = victims[Math.floor(rand() * victims.length)]!;
          vr.pods.splice(vr.pods.indexOf(victim), 1);
          await victim.proc.kill9();
          figures.chaos.push(`kill -9 ${victim.name} (phase ${vr.phase}) mid-rollout to ${phase}`);
          say(`rollout: chaos: kill -9 ${victim.name}`);
          publish();
          await startPod(vr); // its ReplicaSet replaces it
          publish();
        }
      }
      for (const r of olds) r.desired = 0;
      publish();
      await delay(opts.renewMs * 2); // the new pods renew (B migrates) before the gate is asked again
    };

    // Revision 1: the fleet today, at O.
    const first = newSet('O');
    first.desired = opts.pods;
    for (let i = 0; i < opts.pods; i++) await startPod(first);
    publish();
    await delay(opts.ttlMs);
    const killIn = Math.floor(rand() * 3); // which rollout (to A, to B, to C) suffers the kill -9
    const rollbackAfterBackfill = rand() < 0.5;
    const go = async (phase: Phase, n: number) => (await ask('AdvanceTarget')) && (await roll(phase, killIn === n ? Math.floor(rand() * opts.pods) : undefined), true);
    if (!(await go('A', 0))) return finish();
    if (!(await go('B', 1))) return finish();
    if (rollbackAfterBackfill && (await ask('Backfill'))) await backfillAll(conn, scripts, sessions);
    // The emergency rollback per the matrix: one adjacent phase, the backfill record cleared.
    if (!(await ask('RollbackPhase'))) return finish();
    figures.chaos.push(`rollback B → A ${rollbackAfterBackfill ? 'after' : 'before'} the backfill`);
    await roll('A', undefined);
    if (!(await go('B', 3))) return finish();
    if (!(await ask('Backfill'))) return finish();
    await backfillAll(conn, scripts, sessions);
    // The drain: the gate allows C only once it observes no live old-keyspace lease (B renew-migrates).
    if (!(await go('C', 2))) return finish();
    return finish();
  } finally {
    watching = false;
    await watcher;
    for (const r of sets) for (const p of r.pods.splice(0)) await p.proc.stop(1000);
    await prom?.stop();
    conn?.disconnect();
    await topo?.stop();
    if (dir) removeTempDir(dir);
  }

  function finish(): RehearsalResult {
    figures.wallMs = Date.now() - started;
    if (figures.oldCensusBeforeC !== null && figures.oldCensusBeforeC !== 0) violations.push(`C was allowed with ${figures.oldCensusBeforeC} live old-keyspace lease(s) observed`);
    return { ok: violations.length === 0, violations: [...new Set(violations)], figures };
  }
}

/** The operator's backfill (ops/backfill: newGen := max(oldGen, newGen)) over every session of the pool. */
async function backfillAll(conn: ValkeyClient, scripts: FencingScripts, sessions: readonly SessionRef[]): Promise<void> {
  for (const s of sessions) {
    const k = sessionKeys(s);
    await evalScript(conn, scripts.get('ops/backfill'), [k.oldGen, k.newGen], []);
  }
}
