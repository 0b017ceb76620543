/**
 * Restarts a node in place: DEBUG RESTART re-executes valkey-server with its own argv in the same
 * process (same PID, port and data dir, so the topology still stops it by PID), and a cluster node
 * rejoins from its nodes.conf — a replica resyncs from its primary. The server can re-execute
 * itself only when it was started by an absolute path (it resolves argv[0] against its working
 * directory), hence useAbsoluteValkeyBinary() before the topology starts.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { closeClient, nodeClient, type NodeInfo } from '../../../../valkey/index.js';
import { sleep } from '../stats.js';

/** Points FENCECHECK_VALKEY_SERVER at valkey-server's absolute path (from PATH) when it is unset. */
export function useAbsoluteValkeyBinary(env: NodeJS.ProcessEnv = process.env): void {
  if (env.FENCECHECK_VALKEY_SERVER) return;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'valkey-server');
    if (!isAbsolute(p)) continue;
    try {
      accessSync(p, constants.X_OK);
      env.FENCECHECK_VALKEY_SERVER = p;
      return;
    } catch {
      /* not here */
    }
  }
}

export class RestartUnsupportedError extends Error {
  override readonly name = 'RestartUnsupportedError';
}

export interface RestartOptions {
  /** Wait for the replication link to be up too (default); false: until the node answers (a held resync). */
  readonly linkUp?: boolean;
  readonly boundMs?: number;
}

/** Restarts `node` and waits (bounded) until it answers again, by default with its replication link up. Returns ms until then. */
export async function restartInPlace(node: NodeInfo, opts: RestartOptions = {}): Promise<number> {
  const { linkUp = true, boundMs = 15_000 } = opts;
  const c = nodeClient(node);
  const t0 = performance.now();
  try {
    await c.call('DEBUG', 'RESTART').then(
      () => undefined,
      (err: Error) => {
        // The connection closes under the command when the restart happens; a reply means it did not.
        if (/failed to restart/i.test(err.message))
          throw new RestartUnsupportedError(`DEBUG RESTART refused on ${node.host}:${node.port} (start the topology with an absolute FENCECHECK_VALKEY_SERVER): ${err.message}`);
      },
    );
  } finally {
    await closeClient(c);
  }
  while (performance.now() - t0 < boundMs) {
    const probe = nodeClient(node);
    try {
      const info = await probe.info('replication');
      if (!linkUp || /role:master/.test(info) || /master_link_status:up/.test(info)) return Math.round(performance.now() - t0);
    } catch {
      /* still restarting */
    } finally {
      await closeClient(probe);
    }
    await sleep(25);
  }
  throw new Error(`${node.host}:${node.port} did not come back within ${boundMs} ms of DEBUG RESTART`);
}
