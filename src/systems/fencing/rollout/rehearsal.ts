/**
 * The migration rehearsal: a fleet of real pod processes (pod.ts) on real Valkey, scraped by a real
 * Prometheus, rolled the way a Kubernetes RollingUpdate rolls a Deployment (controller.ts) through
 * O → A → B → backfill → drain → C, asking the gate before every image change and the backfill
 * (steps.ts) with the facts the gate reads for itself (Prometheus, the ReplicaSets as kubectl prints
 * them, the deploy record it writes, the keyspace). Seeded chaos (chaos.ts): a pod killed with
 * SIGKILL mid-rollout, an emergency rollback per the matrix at a random point, and the backfill
 * re-run after it. Checked all along on the real keyspace (checks.ts): T1, T2, and the old-keyspace
 * lease count the gate observed 0 before C. A watcher sees it all through `observer`.
 */
import { join } from 'node:path';
import { ownedTempDir, removeTempDir } from '../../../core/temp-dir.js';
import { mulberry32 } from '../../../core/random.js';
import { startTopology, type Topology, type ValkeyClient } from '../../../valkey/index.js';
import { delay } from '../../../valkey/wait.js';
import { startPrometheus, type PrometheusServer } from '../../../fleet/prometheus.js';
import type { Gate } from '../gate/gate.js';
import type { FleetSources } from '../gate/read-fleet.js';
import { initialRecord, writeRecord } from '../gate/record.js';
import type { SessionRef } from '../keys.js';
import { loadFencingScripts } from '../scripts.js';
import type { GateStep } from '../gate/rules.js';
import { PHASES, type Phase } from '../state.js';
import { chaosEvent, crashLoopOnePod, failOneScrape, killOnePod, planChaos, restartPrometheus, stopRenewingOnePod, type ChaosContext, type ChaosPlan, type ScrapeFault } from './chaos.js';
import { checkAdjacentPhases, checkCensusBeforeC, GenerationLedger, Violations, watchT1, type KeyspaceWatch } from './checks.js';
import { DeploymentController } from './controller.js';
import { newFigures, type RehearsalFigures } from './figures.js';
import { bothObservers, type RehearsalObserver } from './observer.js';
import type { PodLine } from './pod-process.js';
import { stepAsker } from './steps.js';
import { TraceRecorder } from './trace-recorder.js';
import { ClusterDoor } from './doors.js';
import { rolloutTraces } from './trace.js';
import type { ObservedTrace } from '../../../seam/tracecheck/format.js';

export { PodStartError } from './pod-process.js';
export type { RehearsalFigures } from './figures.js';
export type { RehearsalObserver } from './observer.js';

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
  /** An impl patch file every pod runs its Lua from (src/systems/fencing/patch.ts); the real scripts by default. */
  readonly patch?: string;
  /** Sees the run as it happens (pods, steps, leases, phase and mode); never changes it. */
  readonly observer?: RehearsalObserver;
  readonly say?: (line: string) => void;
}

export const DEFAULT_REHEARSAL: Omit<RehearsalOptions, 'seed'> = { pods: 3, sessions: 8, ttlMs: 600, renewMs: 200, scrapeMs: 250, stepTimeoutMs: 60_000 };

export interface RehearsalResult {
  readonly ok: boolean;
  readonly violations: readonly string[];
  readonly figures: RehearsalFigures;
  /** The run as observed traces of the fencing spec, one per session (trace.ts), for TLC (judge.ts). */
  readonly traces: readonly ObservedTrace[];
}

export async function rehearse(opts: RehearsalOptions): Promise<RehearsalResult> {
  const box: { recorder?: TraceRecorder } = {};
  const r = await rehearseFleet(opts, box);
  // Built once every pod has stopped: every step a pod reported is in, whatever order its line came in.
  const replay = `fencecheck rollout --seed ${opts.seed} --pods ${opts.pods} --sessions ${opts.sessions}`;
  return { ...r, traces: box.recorder ? rolloutTraces(box.recorder.entries, { id: `rollout seed ${opts.seed}`, replay }) : [] };
}

async function rehearseFleet(opts: RehearsalOptions, box: { recorder?: TraceRecorder }): Promise<Omit<RehearsalResult, 'traces'>> {
  const say = opts.say ?? (() => {});
  const observer = opts.observer ?? {};
  const rand = mulberry32(opts.seed);
  // Hand-overs come at times the seed does not fix: their own stream, so the chaos replays.
  const handRand = mulberry32(opts.seed ^ 0x5eed);
  // The chaos kinds added after the kill and the rollback draw from their own stream (chaos.ts).
  const chaosRand = mulberry32(opts.seed ^ 0xc4a05);
  const started = Date.now();
  const violations = new Violations();
  const figures = newFigures(opts.sessions);
  const ledger = new GenerationLedger(violations);
  let topo: Topology | undefined;
  let conn: ValkeyClient | undefined;
  let prom: PrometheusServer | undefined;
  let promUp = false;
  let promBack: Promise<void> | undefined;
  let dir: string | undefined;
  let watch: KeyspaceWatch | undefined;
  let controller: DeploymentController | undefined;
  let doors: ClusterDoor | undefined;
  const sessions: SessionRef[] = Array.from({ length: opts.sessions }, (_, i) => ({ community: 'rehearsal', session: `s${i}` }));
  try {
    topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    conn = topo.client();
    const recorder = new TraceRecorder(topo.client(), sessions);
    box.recorder = recorder;
    const node = topo.nodes[0]!;
    const scripts = loadFencingScripts();
    dir = ownedTempDir('rollout');
    const recordPath = join(dir, 'deploy-record.json');
    const rsPath = join(dir, 'replicasets.json');
    writeRecord(recordPath, initialRecord());
    prom = await startPrometheus({ scrapeIntervalMs: opts.scrapeMs, targets: [] });
    promUp = true;
    const fleet: FleetSources = { phases: { kind: 'prometheus', url: prom.url }, replicaSets: { kind: 'file', path: rsPath }, maxAgeMs: Math.max(1000, opts.scrapeMs * 8) };
    say(
      `rollout: seed ${opts.seed}: Valkey ${node.host}:${node.port}, Prometheus ${prom.url}, ${opts.pods} pods per ReplicaSet, ${opts.sessions} sessions, TTL ${opts.ttlMs} ms, renew ${opts.renewMs} ms`,
    );

    // A failed scrape: no step may be allowed while every recent scrape of the pod failed.
    const scrapeFaults: ScrapeFault[] = [];
    const checksObserver: RehearsalObserver = {
      podStarted: () =>
        checkAdjacentPhases(
          ctl.running().map(([, p]) => ({ pod: p.name, phase: p.phase })),
          violations,
        ),
      stepAllowed: (e) => {
        for (const f of scrapeFaults) if (e.at >= f.surelyFailingFrom && e.at <= f.until) violations.add(`Fleet_EveryPodReports: ${e.step} allowed while every scrape of ${f.pod} failed`);
      },
    };
    const watchers = bothObservers(checksObserver, observer);
    const ctl = new DeploymentController({
      replicaSetsPath: rsPath,
      setTargets: (t) => promUp && prom!.setTargets(t),
      pod: { valkey: `${node.host}:${node.port}`, sessions: opts.sessions, ttlMs: opts.ttlMs, renewMs: opts.renewMs, ...(opts.patch !== undefined && { patch: opts.patch }) },
      podSeed: () => Math.floor(rand() * 2 ** 31),
      handRand,
      onLine: (pod, line, phase) => onPodLine(pod, line, phase),
      observer: watchers,
      say,
    });
    controller = ctl;
    /** The leases each pod holds now, by session, as its lines tell. */
    const holds = new Map<string, Map<string, number>>();
    const hold = (pod: string) => holds.get(pod) ?? holds.set(pod, new Map()).get(pod)!;
    /** Sessions a pod that stopped renewing held, with its generation: a takeover must issue above it. */
    const abandoned = new Map<string, { pod: string; gen: number }>();
    // The phase is the one the pod's process runs (a pod on a stale image runs its previous phase;
    // a pod deleted and started again under its name runs its ReplicaSet's), never its tag's.
    const onPodLine = (pod: string, line: PodLine, phase: Phase) => {
      const at = Date.now();
      switch (line.ev) {
        case 'issued': {
          figures.generationsIssued++;
          hold(pod).set(line.session, line.gen);
          const was = abandoned.get(line.session);
          if (was && was.pod !== pod) {
            abandoned.delete(line.session);
            if (line.gen > was.gen) figures.takeovers++;
            else violations.add(`T2: ${line.session} taken over from ${was.pod}, which stopped renewing at generation ${was.gen}, with generation ${line.gen}`);
          }
          ledger.issue(line.session, line.gen, `${pod}/${line.lane}`);
          observer.leaseAcquired?.({ at, pod, phase, lane: line.lane, owner: line.owner, session: line.session, gen: line.gen });
          break;
        }
        case 'renewed':
          hold(pod).set(line.session, line.gen);
          if (line.migrated) figures.migrations++;
          observer.leaseRenewed?.({ at, pod, phase, lane: line.lane, owner: line.owner, session: line.session, gen: line.gen, migrated: line.migrated });
          break;
        case 'released':
          hold(pod).delete(line.session);
          observer.leaseReleased?.({ at, pod, phase, lane: line.lane, owner: line.owner, session: line.session, gen: line.gen });
          break;
        case 'lost':
          hold(pod).delete(line.session);
          observer.leaseLost?.({ at, pod, phase, lane: line.lane, owner: line.owner, session: line.session, gen: line.gen, reply: line.reply });
          break;
        case 'handoff':
          hold(pod).delete(line.session);
          ctl.handOver(`${line.owner}|${line.session}|${line.gen}`);
          break;
        case 'step':
          recorder.podLine(pod, phase, line);
          break;
        case 't3':
          violations.add(`T3: ${pod}: ${line.what}`);
          break;
        case 'error':
          if (/^migrated /.test(line.message)) violations.add(`T2: ${pod}: ${line.message}`);
          break;
      }
    };

    watch = watchT1(topo.client(), sessions, violations, () => figures.keyspaceReads++);
    const steps = stepAsker({
      conn,
      scripts,
      fleet,
      recordPath,
      ...(opts.gate && { gate: opts.gate }),
      stepTimeoutMs: opts.stepTimeoutMs,
      retryMs: opts.scrapeMs,
      figures,
      violations,
      observer: recorder.observing(watchers),
      say,
      // The operator's answer to a pod the gate names, whose gauge disagrees with its image: delete it, its ReplicaSet starts it again.
      onRefused: async (obs, refusedBy) => {
        for (const pod of await ctl.replaceOffImage(obs.podPhases, (pod) => refusedBy.some((r) => r.reason.includes(`${pod}=`))))
          say(`rollout: pipeline: deleted ${pod} (its gauge disagrees with its image); its ReplicaSet starts it again`);
      },
    });
    const chaos: ChaosContext = { controller: ctl, rand, chaosRand, scrapeMs: opts.scrapeMs, figures, observer, say };
    // Drawn after the first ReplicaSet's pods (their seeds come first from `rand`).
    let plan: ChaosPlan | undefined;
    let asked = 0;
    /** The gate asked, with the chaos planned before this ask. */
    const ask = async (step: GateStep): Promise<boolean> => {
      const n = asked++;
      if (n === plan!.failedScrapeBefore) scrapeFaults.push(await failOneScrape(chaos, plan!.failedScrapeMode, step));
      if (n === plan!.prometheusRestartBefore) {
        const port = prom!.port;
        promUp = false;
        // Restarted in the background: the gate is asked (and must fail closed) while it is down.
        promBack = restartPrometheus(
          chaos,
          () => prom!.stop(),
          async () => {
            prom = await startPrometheus({ scrapeIntervalMs: opts.scrapeMs, targets: ctl.targets(), port });
            promUp = true;
          },
          opts.scrapeMs * 8,
          step,
        );
        await delay(opts.scrapeMs);
      }
      return steps.ask(step);
    };
    /** The abandoned sessions of a pod that stops renewing, for the takeover check. */
    const stopRenewing = async (phase: Phase) => {
      const pod = await stopRenewingOnePod(chaos, phase);
      for (const [session, gen] of hold(pod)) abandoned.set(session, { pod, gen });
    };
    const backfill = async () => {
      await recorder.backfill(scripts);
      observer.backfillRan?.({ at: Date.now() });
    };

    /** RollingUpdate to `phase`; `killAt`: after which surge a pod is killed with SIGKILL. */
    let rollouts = 0;
    const roll = async (phase: Phase, killAt: number | undefined) => {
      await recorder.settled(); // the gate's step is read on the keyspace before any pod of the new image runs
      const n = rollouts++;
      if (n === 0) await crashLoopOnePod(chaos);
      const stale = n === plan!.staleIn ? { at: plan!.staleAt, runs: PHASES[PHASES.indexOf(phase) - 1]! } : undefined;
      if (stale) chaosEvent(chaos, `pod ${stale.at + 1} of the rollout to ${phase} comes up on a stale image (runs ${stale.runs})`);
      await ctl.rollingUpdate(
        phase,
        opts.pods,
        async (i) => {
          if (i === killAt) await killOnePod(chaos, phase);
          if (n === plan!.stopRenewingIn && i === plan!.stopRenewingAt) await stopRenewing(phase);
        },
        stale,
      );
      await delay(opts.renewMs * 2); // the new pods renew (B migrates) before the gate is asked again
    };

    // Revision 1: the fleet today, at O.
    await ctl.scaleUp('O', opts.pods);
    await delay(opts.ttlMs);
    plan = planChaos(rand, chaosRand, opts.pods);
    const go = async (phase: Phase, n: number) => (await ask('AdvanceTarget')) && (await roll(phase, plan!.killIn === n ? Math.floor(rand() * opts.pods) : undefined), true);
    if (!(await go('A', 0))) return finish();
    if (!(await go('B', 1))) return finish();
    if (plan!.rollbackAfterBackfill && (await ask('Backfill'))) await backfill();
    // The emergency rollback per the matrix: one adjacent phase, the backfill record cleared.
    if (!(await ask('RollbackPhase'))) return finish();
    chaosEvent(chaos, `rollback B → A ${plan!.rollbackAfterBackfill ? 'after' : 'before'} the backfill`);
    await roll('A', undefined);
    if (!(await go('B', 3))) return finish();
    if (!(await ask('Backfill'))) return finish();
    await backfill();
    // The drain: the gate allows C only once it observes no live old-keyspace lease (B renew-migrates).
    if (!(await go('C', 2))) return finish();
    // The mode doors, each asked of the gate, and the fleet onto a real cluster (doors.ts).
    doors = new ClusterDoor();
    figures.doors = await doors.run({ standalone: conn, sessions, steps, controller: ctl, recorder, pods: opts.pods, renewMs: opts.renewMs, say });
    return finish();
  } finally {
    await watch?.stop();
    await controller?.stopAll();
    await doors?.close();
    await promBack?.catch(() => {});
    await prom?.stop();
    conn?.disconnect();
    await box.recorder?.close();
    await topo?.stop();
    if (dir) removeTempDir(dir);
  }

  function finish(): Omit<RehearsalResult, 'traces'> {
    figures.podsStarted = controller?.podsStarted ?? 0;
    figures.wallMs = Date.now() - started;
    checkCensusBeforeC(figures.oldCensusBeforeC, violations);
    const found = violations.list();
    return { ok: found.length === 0, violations: found, figures };
  }
}
