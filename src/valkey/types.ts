import type { Redis, Cluster } from 'ioredis';

export type TopologySpec = { kind: 'standalone' } | { kind: 'cluster'; shards: number; replicasPerShard?: number };

export interface NodeInfo {
  readonly host: string;
  readonly port: number;
  readonly role: 'primary' | 'replica';
  readonly pid?: number;
}

export type ValkeyClient = Redis | Cluster;

export type ProviderName = 'native' | 'testcontainers' | 'external';

export interface Topology {
  readonly spec: TopologySpec;
  readonly provider: ProviderName;
  readonly nodes: readonly NodeInfo[];
  /** '' on nodes the harness owns; a per-run prefix (no braces) on external endpoints. */
  readonly keyPrefix: string;
  /**
   * The harness started every node of it (the process registry holds a live record of each node's
   * port and INFO run_id). Only then may a step flush, reconfigure, reshard or read server-wide
   * counters. Never true for an endpoint merely because its address is loopback.
   */
  readonly owned: boolean;
  /**
   * Destructive commands (FLUSHALL, CONFIG SET, CLUSTER changes, SCRIPT FLUSH, …) are allowed:
   * `owned`, or FENCECHECK_ALLOW_DESTRUCTIVE=1 on an endpoint that is not owned (then each one is
   * named on stderr before it is sent). Steps that need ownership check `owned`, not this.
   */
  readonly destructiveAllowed: boolean;
  /** A new ioredis Redis (standalone) or Cluster client with the no-resend options. */
  client(): ValkeyClient;
  /** FLUSHALL on every primary; throws UnsafeOperationError unless destructiveAllowed. */
  flush(): Promise<void>;
  /**
   * Stops every process it started, by PID; idempotent. On an external endpoint it starts nothing,
   * and instead removes every key under `keyPrefix` (SCAN on every primary), counters included.
   */
  stop(): Promise<void>;
}

/** AUTH for an endpoint given as `redis://user:pass@host:port` or `redis://:pass@host:port`. Never printed. */
export interface Credentials {
  readonly username?: string;
  readonly password?: string;
}

export type ClientTarget =
  | ({ kind: 'standalone'; host: string; port: number } & Credentials)
  | ({ kind: 'cluster'; seeds: readonly { host: string; port: number }[] } & Credentials);

export function describeSpec(spec: TopologySpec): string {
  if (spec.kind === 'standalone') return 'standalone';
  const r = spec.replicasPerShard ?? 0;
  return `cluster ${spec.shards} shard${spec.shards === 1 ? '' : 's'}${r > 0 ? ` × ${r} replica${r === 1 ? '' : 's'}` : ''}`;
}
