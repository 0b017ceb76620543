/**
 * A loopback TCP proxy in front of one Valkey node that can lose exactly one reply: when armed, it
 * forwards the client's next request, swallows the server's reply to it and closes the client
 * connection. The command therefore EXECUTED on the server and the client cannot know — the
 * "connection failure after send" the no-resend rule is about. Loopback only; stop() closes all.
 * (Arm it only while the client under test is the proxy's sole user with a call in flight.)
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Cluster } from 'ioredis';
import { keySlot } from '../../src/slots/index.js';
import { closeClient, clusterClientOptions, createClient, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { scriptExecutions } from './observe.js';

export interface DropProxy {
  readonly port: number;
  /** The next reply the server sends (on any connection) is dropped with its client connection. */
  armDrop(): void;
  /** Cancels an armed drop that has not happened. */
  disarm(): void;
  /** Replies dropped so far. */
  readonly dropped: number;
  stop(): Promise<void>;
}

export async function startDropProxy(target: { host: string; port: number }): Promise<DropProxy> {
  let armed = false;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (armed) {
        armed = false;
        dropped++;
        closeBoth();
        return;
      }
      client.write(chunk);
    });
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('drop proxy: no TCP address');
  return {
    port: address.port,
    armDrop: () => void (armed = true),
    disarm: () => void (armed = false),
    get dropped() {
      return dropped;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Lost replies on any owned topology: a proxy in front of every primary, a client that reaches
 * every node only through them (a Cluster client maps the announced node addresses with natMap),
 * and per-node execution counts read directly from the nodes.
 */
export interface ReplyDropper {
  /** The client under test: every connection runs through a proxy. */
  readonly client: ValkeyClient;
  /** The next reply from the node that owns `key` is lost, with that client connection. */
  armDrop(key: string): void;
  /** Cancels every armed drop that has not happened (call it when the call under test settled). */
  disarm(): void;
  /** Script executions summed over every primary (INFO commandstats, read directly). */
  executions(): Promise<number>;
  stop(): Promise<void>;
}

export async function startReplyDropper(topology: Topology): Promise<ReplyDropper> {
  if (!topology.owned) throw new Error('lost-reply faults need a topology the harness owns');
  const primaries = topology.nodes.filter((n) => n.role === 'primary');
  const proxies = new Map<string, DropProxy>();
  const direct: ValkeyClient[] = [];
  const stopAll = async () => {
    await Promise.all(direct.map(closeClient));
    await Promise.all([...proxies.values()].map((p) => p.stop()));
  };
  try {
    for (const n of primaries) {
      proxies.set(`${n.host}:${n.port}`, await startDropProxy(n));
      direct.push(createClient({ kind: 'standalone', host: n.host, port: n.port }));
    }
    const prefix = topology.keyPrefix;
    let client: ValkeyClient;
    let proxyFor: (key: string) => DropProxy;
    if (topology.spec.kind === 'standalone') {
      const only = [...proxies.values()][0]!;
      client = createClient({ kind: 'standalone', host: '127.0.0.1', port: only.port }, prefix ? { keyPrefix: prefix } : {});
      proxyFor = () => only;
    } else {
      const natMap: Record<string, { host: string; port: number }> = {};
      for (const [addr, p] of proxies) natMap[addr] = { host: '127.0.0.1', port: p.port };
      const cluster = new Cluster(
        [...proxies.values()].map((p) => ({ host: '127.0.0.1', port: p.port })),
        { ...clusterClientOptions(natMap), ...(prefix ? { keyPrefix: prefix } : {}) },
      );
      cluster.on('error', () => {});
      client = cluster;
      const owner = await slotOwners(direct[0]!);
      proxyFor = (key) => {
        const addr = owner[keySlot(prefix + key)];
        const p = addr === undefined ? undefined : proxies.get(addr);
        if (!p) throw new Error(`no proxy for the node owning ${key}`);
        return p;
      };
    }
    return {
      client,
      armDrop: (key) => proxyFor(key).armDrop(),
      disarm: () => proxies.forEach((p) => p.disarm()),
      executions: async () => {
        let n = 0;
        for (const c of direct) n += await scriptExecutions(c);
        return n;
      },
      stop: async () => {
        await closeClient(client);
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** slot → "host:port" of its primary, from CLUSTER SLOTS. */
async function slotOwners(node: ValkeyClient): Promise<string[]> {
  const owner: string[] = [];
  for (const [start, end, primary] of (await node.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][]) {
    for (let s = start; s <= end; s++) owner[s] = `${primary[0]}:${primary[1]}`;
  }
  return owner;
}
