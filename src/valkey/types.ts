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
  /** May FLUSHALL / CONFIG SET / change cluster state. */
  readonly owned: boolean;
  /** A new ioredis Redis (standalone) or Cluster client with the no-resend options. */
  client(): ValkeyClient;
  /** FLUSHALL on every primary; throws UnsafeOperationError on non-owned topologies. */
  flush(): Promise<void>;
  /** Stops every process it started, by PID; idempotent. */
  stop(): Promise<void>;
}

export type ClientTarget =
  | { kind: 'standalone'; host: string; port: number }
  | { kind: 'cluster'; seeds: readonly { host: string; port: number }[] };

export function describeSpec(spec: TopologySpec): string {
  if (spec.kind === 'standalone') return 'standalone';
  const r = spec.replicasPerShard ?? 0;
  return `cluster ${spec.shards} shard${spec.shards === 1 ? '' : 's'}${r > 0 ? ` × ${r} replica${r === 1 ? '' : 's'}` : ''}`;
}
