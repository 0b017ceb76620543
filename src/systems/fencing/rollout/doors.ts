/**
 * The mode doors after C, each asked of the gate (G3, G4): a real cluster of three primaries is
 * started, the gate asked `EnterCompatible` with the CLUSTER KEYSLOT check of a real tagged pair
 * from it; then the fleet moves through the door: its pods stop, the sessions' keys are carried
 * (DUMP/RESTORE with their TTLs) onto the one-shard cluster (compatible: slot rules on), and a
 * fleet of C pods starts on the cluster; the gate is asked `Enable`, and the cluster reshards live
 * onto every primary while the pods keep renewing (their clients meet ASK / MOVED). T3 is checked on
 * the wire by each pod (pod.ts: a script naming an old key, or refused with CROSSSLOT).
 */
import { createDoor, type DoorBackend } from '../door.js';
import { startTopology, type Topology, type ValkeyClient } from '../../../valkey/index.js';
import { delay } from '../../../valkey/wait.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import type { DeploymentController } from './controller.js';
import { stepCounterKey } from './observed-call.js';
import type { StepAsker } from './steps.js';
import type { TraceRecorder } from './trace-recorder.js';

export const DOOR_SHARDS = 3;

export interface DoorFigures {
  readonly shards: number;
  /** Keys carried through the door (the sessions' new pairs and step counters that existed). */
  readonly keysCarried: number;
  /** ASKING commands the primaries served: clients that met the live resharding. */
  readonly askRedirects: number;
  /** Whether the gate allowed each door. */
  readonly compatible: boolean;
  readonly enabled: boolean;
}

export interface DoorsContext {
  readonly standalone: ValkeyClient;
  readonly sessions: readonly SessionRef[];
  readonly steps: StepAsker;
  readonly controller: DeploymentController;
  readonly recorder: TraceRecorder;
  readonly pods: number;
  readonly renewMs: number;
  readonly say: (line: string) => void;
}

/** The cluster and its door, started for the doors and stopped by `close()` once the pods are gone. */
export class ClusterDoor {
  private topo: Topology | undefined;
  private door: DoorBackend | undefined;

  /** Runs both doors; the figures say how far the gate let it go. */
  async run(c: DoorsContext): Promise<DoorFigures> {
    this.topo = await startTopology({ kind: 'cluster', shards: DOOR_SHARDS }, { provider: 'native' });
    this.door = await createDoor(this.topo);
    const first = this.topo.nodes.find((n) => n.role === 'primary')!;
    const k0 = sessionKeys(c.sessions[0]!);
    const keyslot = await this.door.keyslotCheck([k0.newLease, k0.newGen]);
    c.say(`rollout: cluster of ${DOOR_SHARDS} primaries at ${first.host}:${first.port}; CLUSTER KEYSLOT of a tagged pair: ${keyslot.slots.join(' = ')}`);
    const figures = { shards: DOOR_SHARDS, keysCarried: 0, askRedirects: 0, compatible: false, enabled: false };
    if (!(await c.steps.ask('EnterCompatible', { keyslot }))) return figures;
    figures.compatible = true;
    // Through the door: the fleet stops, its keys move, a fleet of C pods starts on the cluster.
    await c.recorder.settled();
    await c.controller.stopAll();
    for (const r of c.controller.sets) r.desired = 0;
    const keys = c.sessions.flatMap((s) => [sessionKeys(s).newLease, sessionKeys(s).newGen, stepCounterKey(s)]);
    figures.keysCarried = (await Promise.all(keys.map((k) => c.standalone.exists(k)))).reduce((n: number, e) => n + e, 0);
    const cluster = await this.door.enter(c.standalone, keys);
    (await c.recorder.retarget(cluster)).disconnect();
    c.controller.retargetPods({ valkey: `${first.host}:${first.port}`, cluster: true });
    c.say(`rollout: through the cluster door: ${figures.keysCarried} keys carried, ${c.pods} C pods on the cluster`);
    await c.controller.scaleUp('C', c.pods);
    await delay(c.renewMs * 3);
    if (!(await c.steps.ask('Enable'))) return figures;
    figures.enabled = true;
    await c.recorder.settled();
    await this.door.enable(keys);
    // The pods renew while the live slots move; then a few more rounds on the resharded cluster.
    for (let i = 0; i < 200 && this.door.migrating; i++) await delay(c.renewMs);
    await delay(c.renewMs * 3);
    figures.askRedirects = await this.door.askRedirects();
    return figures;
  }

  async close(): Promise<void> {
    await this.door?.close();
    await this.topo?.stop();
  }
}
