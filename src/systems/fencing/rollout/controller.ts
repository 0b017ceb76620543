/**
 * The rehearsal's Deployment controller: ReplicaSets with counts, published as `kubectl get rs -o
 * json` prints them (the file the gate reads) and as Prometheus's scrape targets, and the
 * RollingUpdate a Kubernetes Deployment does with maxSurge 1, maxUnavailable 0 (one new pod up,
 * then one old pod stopped). A stopping pod's sessions move to a running pod of the newest
 * ReplicaSet, as a tunnel reconnects to another relay.
 */
import { writeFileSync } from 'node:fs';
import type { ScrapeTarget } from '../../../fleet/prometheus.js';
import type { Phase } from '../state.js';
import type { RehearsalObserver } from './observer.js';
import { startPodProcess, tellPod, type PodLine, type PodSpec, type RunningPod } from './pod-process.js';

export interface ReplicaSetState {
  readonly name: string;
  readonly revision: number;
  readonly phase: Phase;
  desired: number;
  readonly pods: RunningPod[];
  /** Pods it asks for that are not up yet (a crash-looping pod in its back-off). */
  pending: number;
}

export interface ControllerOptions {
  /** Where the ReplicaSet list is written (what the gate reads as kubectl's output). */
  readonly replicaSetsPath: string;
  /** Hands the pods' /metrics addresses to the scraper (the current Prometheus). */
  readonly setTargets: (targets: readonly ScrapeTarget[]) => void;
  /** Everything of a pod's spec but its name and phase. */
  readonly pod: Omit<PodSpec, 'name' | 'phase' | 'seed'>;
  /** Each new pod's seed (drawn from the rehearsal's seeded stream, in start order). */
  readonly podSeed: () => number;
  /** Picks which running pod of the newest ReplicaSet takes a handed-over session. */
  readonly handRand: () => number;
  readonly onLine: (pod: string, line: PodLine, phase: Phase) => void;
  readonly observer: RehearsalObserver;
  readonly say: (line: string) => void;
}

export class DeploymentController {
  readonly sets: ReplicaSetState[] = [];
  podsStarted = 0;
  private revision = 0;
  /** Work the ReplicaSets do on their own (a crash-looping pod's restart), awaited before the end. */
  private readonly background: Promise<void>[] = [];
  /** RollingUpdates finished, and whether the run is ending (a crash-looping pod is not restarted then). */
  private rolled = 0;
  private stopping = false;
  private podSeq = 0;

  constructor(private o: ControllerOptions) {}

  /** Pods started from now on run against another Valkey (the cluster door). */
  retargetPods(pod: Partial<ControllerOptions['pod']>): void {
    this.o = { ...this.o, pod: { ...this.o.pod, ...pod } };
  }

  /** Writes the ReplicaSets (kubectl's shape) and the scrape targets. */
  publish(): void {
    const items = this.sets.map((r) => ({
      kind: 'ReplicaSet',
      metadata: { name: r.name, annotations: { 'deployment.kubernetes.io/revision': String(r.revision) } },
      spec: { replicas: r.desired, template: { spec: { containers: [{ name: 'relay', image: `relay:phase-${r.phase}` }] } } },
      status: { replicas: r.pods.length },
    }));
    writeFileSync(this.o.replicaSetsPath, JSON.stringify({ kind: 'ReplicaSetList', items }));
    this.o.setTargets(this.targets());
  }

  targets(): ScrapeTarget[] {
    return this.sets.flatMap((r) => r.pods.map((p) => ({ address: p.address, labels: { pod: p.name } })));
  }

  newSet(phase: Phase): ReplicaSetState {
    this.revision++;
    const rs: ReplicaSetState = { name: `relay-${this.revision}`, revision: this.revision, phase, desired: 0, pods: [], pending: 0 };
    this.sets.push(rs);
    return rs;
  }

  /** Every running pod with its ReplicaSet, oldest ReplicaSet first. */
  running(): (readonly [ReplicaSetState, RunningPod])[] {
    return this.sets.flatMap((r) => r.pods.map((p) => [r, p] as const));
  }

  /** A pod of `rs`; `runs`: the phase it really runs, when the node started a stale image (chaos). */
  async startPod(rs: ReplicaSetState, runs: Phase = rs.phase): Promise<RunningPod> {
    const name = `${rs.name}-${(this.podSeq++).toString(36).padStart(4, '0')}`;
    const seed = this.o.podSeed();
    this.podsStarted++;
    const pod = await startPodProcess({ ...this.o.pod, name, phase: runs, seed }, this.o.onLine);
    rs.pods.push(pod);
    this.o.observer.podStarted?.({ at: Date.now(), pod: name, replicaSet: rs.name, phase: runs });
    return pod;
  }

  /**
   * `kubectl delete pod` of every pod whose gauge reports another phase than its ReplicaSet's image
   * and that the gate's refusal `named` (what an operator does on reading it): its ReplicaSet starts it again, the image pulled anew.
   */
  async replaceOffImage(reported: Readonly<Record<string, Phase>>, named: (pod: string) => boolean): Promise<string[]> {
    const off = this.running().filter(([r, p]) => reported[p.name] !== undefined && reported[p.name] !== r.phase && named(p.name));
    for (const [r, p] of off) {
      await this.stopPod(r, p);
      this.publish();
      await this.startPod(r);
      this.publish();
    }
    return off.map(([, p]) => p.name);
  }

  /**
   * A pod killed that crash-loops: its ReplicaSet asks for it all along but starts it again only
   * `backoffMs` (the kubelet's restart back-off) after the RollingUpdate under way has ended. The Deployment scales an old ReplicaSet down
   * by terminating its pods, so an old one keeps asking until the replacement is up and stopped.
   */
  async crashLoop(rs: ReplicaSetState, pod: RunningPod, backoffMs: number): Promise<void> {
    rs.pending++;
    await this.killPod(rs, pod);
    this.publish();
    const rolled = this.rolled;
    this.background.push(
      (async () => {
        // The back-off counts from the end of the RollingUpdate under way, whatever its length.
        while (this.rolled === rolled && !this.stopping) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, backoffMs));
        if (this.stopping) {
          rs.pending--;
          return;
        }
        const p = await this.startPod(rs);
        rs.pending--;
        this.publish();
        // An old ReplicaSet's replacement is scaled down by the Deployment as soon as it is up.
        if (this.sets.at(-1) !== rs && rs.pods.includes(p)) {
          rs.desired = Math.max(0, rs.desired - 1);
          await this.stopPod(rs, p);
          this.publish();
        }
      })(),
    );
  }

  /** A graceful stop (SIGTERM): the pod hands its sessions over before it exits. */
  async stopPod(rs: ReplicaSetState, pod: RunningPod, graceMs?: number): Promise<void> {
    if (rs.pods.includes(pod)) rs.pods.splice(rs.pods.indexOf(pod), 1);
    await pod.proc.stop(graceMs);
    this.o.observer.podStopped?.({ at: Date.now(), pod: pod.name, replicaSet: rs.name, phase: rs.phase });
  }

  /** `kill -9`: the pod's leases stay until their TTL; its ReplicaSet is not told. */
  async killPod(rs: ReplicaSetState, pod: RunningPod): Promise<void> {
    if (rs.pods.includes(pod)) rs.pods.splice(rs.pods.indexOf(pod), 1);
    await pod.proc.kill9();
    this.o.observer.podKilled?.({ at: Date.now(), pod: pod.name, replicaSet: rs.name, phase: rs.phase });
  }

  /** A stopped pod's session (`owner|community:session|generation`) to a running pod of the newest ReplicaSet. */
  handOver(line: string): void {
    const newest = this.sets.at(-1)?.pods ?? [];
    const to = newest[Math.floor(this.o.handRand() * newest.length)];
    if (to) void tellPod(to, '/adopt', line);
  }

  /** The first revision: `replicas` pods of `phase`, started one by one. */
  async scaleUp(phase: Phase, replicas: number): Promise<ReplicaSetState> {
    const rs = this.newSet(phase);
    rs.desired = replicas;
    for (let i = 0; i < replicas; i++) await this.startPod(rs);
    this.publish();
    return rs;
  }

  /**
   * RollingUpdate to a new ReplicaSet of `phase`, maxSurge 1, maxUnavailable 0; `afterSurge(i)` runs
   * after the i-th surge (one new pod up, one old stopped): where chaos strikes mid-rollout.
   */
  async rollingUpdate(phase: Phase, replicas: number, afterSurge?: (i: number) => Promise<void>, stale?: { readonly at: number; readonly runs: Phase }): Promise<void> {
    const olds = this.sets.filter((r) => r.pods.length > 0 || r.desired > 0);
    const rs = this.newSet(phase);
    rs.desired = replicas;
    this.o.say(`rollout: RollingUpdate to ${rs.name} (phase ${phase})`);
    for (let i = 0; rs.pods.length < replicas; i++) {
      await this.startPod(rs, stale?.at === i ? stale.runs : phase);
      this.publish();
      const old = olds.find((r) => r.pods.length > 0);
      if (old) {
        old.desired = Math.max(0, old.desired - 1);
        await this.stopPod(old, old.pods[0]!);
        this.publish();
      }
      await afterSurge?.(i);
    }
    // An old ReplicaSet still asks for the pods it is restarting (crashLoop stops them once up).
    for (const r of olds) r.desired = r.pending;
    this.publish();
    this.rolled++;
  }

  /** Stops every pod (the end of the run, or its failure). */
  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled(this.background);
    for (const r of this.sets) for (const p of [...r.pods]) await this.stopPod(r, p, 1000);
  }
}
