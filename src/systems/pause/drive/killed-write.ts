/**
 * A write that fails by a killed connection on a paused server: the node owning the pause keys'
 * slot is paused for writes (CLIENT PAUSE <ms> WRITE, bounded), the write is sent on a dedicated
 * connection whose CLIENT ID is known, the driver waits (bounded) until the server shows that
 * client blocked, then CLIENT KILL ID and CLIENT UNPAUSE (always). Valkey 8 postpones the first
 * write queued inside MULTI (CLIENT LIST: flags=xb cmd=set), so the rest of the transaction and
 * its EXEC never run: a killed client's transaction is discarded, nothing is written.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { createClient, type ValkeyClient } from '../../../valkey/index.js';
import { InfrastructureFault } from '../../../valkey/fault.js';

/** The admin steps once the write is seen blocked; each runs at most once. */
export interface KillSteps {
  /** CLIENT KILL ID of the write's connection: true when the server killed a client. */
  kill(): Promise<boolean>;
  /** CLIENT UNPAUSE. */
  unpause(): Promise<void>;
}

/** In which order the steps run; returns kill()'s answer. The right order: kill, then unpause. */
export type KillOrder = (s: KillSteps) => Promise<boolean>;

export const killThenUnpause: KillOrder = async (s) => {
  try {
    return await s.kill();
  } finally {
    await s.unpause();
  }
};

export interface KilledWriteOptions {
  /** A connection to the node owning the keys' slot (the admin commands go there). */
  readonly admin: ValkeyClient;
  readonly endpoint: { readonly host: string; readonly port: number };
  readonly order: KillOrder;
  /** The write, on the dedicated connection. */
  readonly write: (conn: ValkeyClient) => Promise<unknown>;
  /** CLIENT PAUSE's own bound (the server unpauses by itself then, even if the driver died). */
  readonly pauseMs?: number;
  /** How long the write may take to show up blocked. */
  readonly blockWaitMs?: number;
}

export interface KilledWrite {
  /** The write's rejection, or null when it resolved. */
  readonly error: unknown;
  /** The connection was seen blocked and was killed. */
  readonly killed: boolean;
}

const PAUSE_MS = 5000;
const BLOCK_WAIT_MS = 2000;

/** CLIENT LIST ID <id>: the client's flags contain 'b' (blocked; a WRITE pause postpones its command). */
async function isBlocked(admin: ValkeyClient, id: number): Promise<boolean> {
  const line = String(await admin.call('CLIENT', 'LIST', 'ID', String(id)));
  return /(?:^|\s)flags=\S*b/.test(line);
}

export async function killedWrite(o: KilledWriteOptions): Promise<KilledWrite> {
  const blockWaitMs = o.blockWaitMs ?? BLOCK_WAIT_MS;
  const conn = createClient({ kind: 'standalone', host: o.endpoint.host, port: o.endpoint.port }) as Redis;
  // A killed connection stays dead: no reconnect that would send a queued command after all.
  conn.options.retryStrategy = () => null;
  try {
    const id = Number(await conn.call('CLIENT', 'ID'));
    await o.admin.call('CLIENT', 'PAUSE', String(o.pauseMs ?? PAUSE_MS), 'WRITE');
    let unpaused = false;
    const unpause = async () => {
      if (unpaused) return;
      unpaused = true;
      await o.admin.call('CLIENT', 'UNPAUSE');
    };
    try {
      let settled = false;
      const outcome = o
        .write(conn)
        .then(
          () => null,
          (e: unknown) => e ?? new Error('the write rejected without a reason'),
        )
        .finally(() => void (settled = true));
      const end = performance.now() + blockWaitMs;
      let blocked = false;
      while (!settled && !(blocked = await isBlocked(o.admin, id))) {
        if (performance.now() > end) {
          // Not seen blocked: kill it anyway, so that it cannot commit after the unpause.
          await o.admin.call('CLIENT', 'KILL', 'ID', String(id)).catch(() => {});
          throw new InfrastructureFault({
            kind: 'timeout',
            reason: `the write on client ${id} did not block on the paused node within ${blockWaitMs} ms`,
            endpoint: `${o.endpoint.host}:${o.endpoint.port}`,
          });
        }
        await sleep(1);
      }
      // The write settled without ever blocking (a patch that writes nothing): nothing to kill.
      if (!blocked) return { error: await outcome, killed: false };
      let killedOne = false;
      const killed = await o.order({
        kill: async () => (killedOne = Number(await o.admin.call('CLIENT', 'KILL', 'ID', String(id))) === 1),
        unpause,
      });
      return { error: await outcome, killed: killed && killedOne };
    } finally {
      await unpause();
    }
  } finally {
    conn.disconnect();
  }
}
