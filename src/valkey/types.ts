import type { Redis, Cluster } from 'ioredis';
import type { TlsSettings } from './tls.js';

/** `tls: true`: every node also listens on a TLS port (certificates the harness makes; native provider only). */
export type TopologySpec = { kind: 'standalone'; tls?: boolean } | { kind: 'cluster'; shards: number; replicasPerShard?: number; tls?: boolean };

export interface NodeInfo {
  readonly host: string;
  readonly port: number;
  readonly role: 'primary' | 'replica';
  readonly pid?: number;
  /** The node's TLS port, on a `tls: true` topology the harness started (`port` stays plain TCP). */
  readonly tlsPort?: number;
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
  /**
   * A `tls: true` topology the harness started: what a client presents and verifies on the nodes'
   * `tlsPort`s (the CA, a client certificate). `client()` still connects to the plain ports.
   */
  readonly tls?: TlsSettings;
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

/**
 * AUTH for an endpoint given as `redis://user:pass@host:port` or `redis://:pass@host:port`, and TLS
 * for `rediss://`. Never printed.
 */
export interface Credentials {
  readonly username?: string;
  readonly password?: string;
  /** Connect with TLS (rediss://), verifying and presenting this. */
  readonly tls?: TlsSettings;
}

export type ClientTarget = ({ kind: 'standalone'; host: string; port: number } & Credentials) | ({ kind: 'cluster'; seeds: readonly { host: string; port: number }[] } & Credentials);

export function describeSpec(spec: TopologySpec): string {
  if (spec.kind === 'standalone') return spec.tls ? 'standalone over TLS' : 'standalone';
  const r = spec.replicasPerShard ?? 0;
  return `cluster ${spec.shards} shard${spec.shards === 1 ? '' : 's'}${r > 0 ? ` × ${r} replica${r === 1 ? '' : 's'}` : ''}${spec.tls ? ' over TLS' : ''}`;
}
