/**
 * What the deployment gate decides from: real observations, never the model's variables.
 * The pipeline's own records (target, mode, backfill record), the phases the pods report
 * (buzz_fencing_phase), and what was counted on the real keyspace (lease census, counters, the
 * pre-G3 CLUSTER KEYSLOT check).
 */
import type { Mode, Phase } from '../state.js';
import type { FleetObservation } from './fleet.js';

export interface CounterObservation {
  /** `<community>:<session>` */
  readonly session: string;
  readonly oldGen: number;
  readonly newGen: number;
}

export interface KeyslotCheck {
  readonly keys: readonly [string, string];
  readonly slots: readonly [number, number];
}

export interface GateObservations {
  /** The phase each live pod reports (not its image tag). */
  readonly podPhases: Readonly<Record<string, Phase>>;
  /** The phase the pipeline is rolling out. */
  readonly target: Phase;
  readonly mode: Mode;
  /** The backfill record: the max-merge ran since the last rollback. */
  readonly backfilled: boolean;
  /** Live leases on old keys / new keys, counted on the real keyspace. */
  readonly oldLeaseCensus: number;
  readonly newLeaseCensus: number;
  /** Both counters of every observed session. */
  readonly counters: readonly CounterObservation[];
  /** CLUSTER KEYSLOT of both members of a real tagged pair; null when no cluster-enabled node was asked. */
  readonly keyslot: KeyslotCheck | null;
  /**
   * What the gate read of the fleet itself (gauges, ReplicaSets), when it did: then `podPhases` is
   * derived from it and the fleet rules judge it. Absent when the deploy facts were given.
   */
  readonly fleet?: FleetObservation;
}
