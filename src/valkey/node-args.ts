import type { TlsMaterial } from './tls-material.js';

/** valkey-server's TLS files and port (the plain `port` stays open for the harness's own connections). */
export interface NodeTls {
  readonly port: number;
  readonly certFile: string;
  readonly keyFile: string;
  readonly caFile: string;
}

/** Options every node the harness starts gets, whoever launches it (a process or a container). */
export interface NodeConfig {
  readonly port: number;
  readonly cluster: boolean;
  /** Cluster bus port (explicit: port+10000 may be taken or out of range). */
  readonly busPort?: number;
  readonly nodeTimeoutMs: number;
  /** Data dir (nodes.conf lives here); persistence is off. */
  readonly dir: string;
  readonly tls?: NodeTls;
}

export interface LaunchedNode {
  readonly host: string;
  readonly port: number;
  readonly busPort?: number;
  /** The TLS port, when launched with TLS material. */
  readonly tlsPort?: number;
  readonly pid?: number;
  stop(): Promise<void>;
  /** The last lines of the node's log, for error messages. */
  logTail(): string;
}

export interface NodeLauncher {
  readonly provider: 'native' | 'testcontainers';
  /** With `tls`: the node also serves TLS (mutual: clients must present a certificate of the same CA). */
  launch(cluster: boolean, nodeTimeoutMs: number, tls?: TlsMaterial): Promise<LaunchedNode>;
}

export function valkeyArgs(c: NodeConfig): string[] {
  const args = [
    '--bind',
    '127.0.0.1',
    '--port',
    String(c.port),
    '--dir',
    c.dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'no',
    '--logfile',
    '',
    '--enable-debug-command',
    'local',
    // Replicas sync at once instead of waiting 5 s for more replicas to batch.
    '--repl-diskless-sync-delay',
    '0',
  ];
  if (c.cluster) {
    args.push(
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `${c.dir}/nodes.conf`,
      '--cluster-node-timeout',
      String(c.nodeTimeoutMs),
      // Without it a one-node cluster announces an empty address and ioredis cannot route.
      '--cluster-announce-ip',
      '127.0.0.1',
    );
    if (c.busPort !== undefined) args.push('--cluster-port', String(c.busPort));
  }
  if (c.tls) {
    args.push(
      '--tls-port',
      String(c.tls.port),
      '--tls-cert-file',
      c.tls.certFile,
      '--tls-key-file',
      c.tls.keyFile,
      '--tls-ca-cert-file',
      c.tls.caFile,
      '--tls-auth-clients',
      'yes',
      '--tls-replication',
      'yes',
    );
    // The bus too: with it, a TLS client is told TLS ports (CLUSTER SLOTS, MOVED, ASK), a plain one plain ports.
    if (c.cluster) args.push('--tls-cluster', 'yes');
  }
  return args;
}
