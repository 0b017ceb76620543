/**
 * What every instance of a pause tour shares on one owned standalone Valkey: the writer SetPaused's
 * writes commit on, a connection logged in as an ACL user that may neither write nor MGET (a
 * transaction sent there aborts at EXEC, a SET or INCR sent there and a load or reconciliation sent there get NOPERM: real
 * failures of a real server), and small pools of command and subscriber connections. A replica of
 * an instance gets leases (lease.ts) on the pools instead of connections of its own, so a tour of
 * a hundred thousand attempts does not open half a million connections; what the replica sends
 * and receives is still real Valkey traffic. The ACL user is deleted again by close().
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createClient, NotOwnedError, startTopology, type StartOptions, type Topology } from '../../../valkey/index.js';
import { ConnectionLease, BARRIER_PREFIX, type LeaseControl } from './lease.js';

const COMMAND_POOL = 4;
const SUBSCRIBER_POOL = 8;
const FAIL_USER_PREFIX = 'fencecheck-pause-tour';

export interface PauseTourRig {
  readonly topology: Topology;
  /** SetPaused's transactions, the barrier publishes and the driver's reads of the pause keys. */
  readonly writer: Redis;
  /** Logged in as a user without any write command (SET, DEL, INCR, …) and without MGET. */
  readonly failing: Redis;
  /** A lease for one replica's `client()` call. */
  lease(control: LeaseControl): ConnectionLease;
  /** A fresh name for an instance's keys. */
  nextName(): string;
  /** What instances' close() checks found (the tour reports the first). */
  readonly closeFindings: string[];
  close(): Promise<void>;
}

type Listener = (lease: ConnectionLease, text: string) => void;

/** Per subscriber connection: channel → the leases subscribed to it there. */
class Dispatcher {
  readonly byChannel = new Map<string, Set<ConnectionLease>>();

  constructor(
    readonly conn: Redis,
    deliver: Listener,
  ) {
    conn.on('message', (channel: string, text: string) => {
      for (const l of this.byChannel.get(channel) ?? []) deliver(l, text);
    });
  }
}

export async function openPauseTourRig(start: StartOptions = {}): Promise<PauseTourRig> {
  const topology = await startTopology({ kind: 'standalone' }, start);
  const node = topology.nodes[0]!;
  const plain = () => createClient({ kind: 'standalone', host: node.host, port: node.port }) as Redis;
  const made: Redis[] = [];
  const failUser = `${FAIL_USER_PREFIX}-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  let writer: Redis | undefined;
  try {
    if (!topology.owned) throw new NotOwnedError('the pause tour', 'it creates an ACL user whose reads and writes fail');
    writer = plain();
    made.push(writer);
    await writer.call('ACL', 'SETUSER', failUser, 'on', `>${password}`, '~*', '&*', '+@all', '-@write', '-mget');
    const failing = createClient({ kind: 'standalone', host: node.host, port: node.port, username: failUser, password }) as Redis;
    made.push(failing);
    const commands = Array.from({ length: COMMAND_POOL }, plain);
    made.push(...commands);
    const deliver: Listener = (lease, text) => (text.startsWith(BARRIER_PREFIX) ? lease.barrier(text) : lease.message(text));
    const subscribers = Array.from({ length: SUBSCRIBER_POOL }, () => {
      const c = plain();
      made.push(c);
      return new Dispatcher(c, deliver);
    });
    await Promise.all(made.map((c) => c.ping()));
    let leases = 0;
    let names = 0;
    const tag = `${process.pid.toString(36)}${Date.now().toString(36)}`;
    const w = writer;
    const closeFindings: string[] = [];
    return {
      topology,
      writer: w,
      failing,
      closeFindings,
      lease: (control) => {
        const i = leases++;
        return new ConnectionLease(control, {
          command: commands[i % COMMAND_POOL]!,
          failing,
          subscribe: async (lease, channel) => {
            const d = subscribers[i % SUBSCRIBER_POOL]!;
            let set = d.byChannel.get(channel);
            if (!set) d.byChannel.set(channel, (set = new Set()));
            set.add(lease);
            await d.conn.subscribe(channel);
            return () => {
              set.delete(lease);
              if (set.size > 0) return;
              d.byChannel.delete(channel);
              void d.conn.unsubscribe(channel).catch(() => {});
            };
          },
        });
      },
      nextName: () => `tour-${tag}-${(names++).toString(36)}`,
      async close() {
        await w.call('ACL', 'DELUSER', failUser).catch(() => {});
        for (const c of made) c.disconnect();
        await topology.stop();
      },
    };
  } catch (err) {
    for (const c of made) c.disconnect();
    await topology.stop();
    throw err;
  }
}
