/**
 * Lost replies on any owned topology, on the foundation's FaultProxy: a proxy in front of every
 * primary, a client that reaches every node only through them (a Cluster client maps the announced
 * node addresses with natMap), and execution counts read directly from the nodes. A lost reply is
 * the "connection failure after send" of the no-resend rule: the script executed, the caller
 * cannot know. (Arm a drop only while the client under test has its one call in flight.)
 */
import { Cluster, type ClusterOptions } from 'ioredis';
import { keySlot } from '../../src/slots/index.js';
import { closeClient, clusterClientOptions, createClient, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { FaultProxy } from '../../src/valkey/fault-proxy.js';
import { totalScriptExecutions } from './observe.js';

export interface ReplyDropper {
  /** The client under test: every connection runs through a proxy. */
  readonly client: ValkeyClient;
  /**
   * The next reply from the node that owns `key` is lost, with that client connection. Waits first
   * until the client's connections answer a PING, so the lost reply is the next command's own and
   * not the handshake of a reconnect still under way after an earlier loss (which would make what
   * is lost depend on timing, and a counterexample not replay).
   */
  armDrop(key: string): Promise<void>;
  /** Cancels every armed drop that has not happened (call it when the call under test settled). */
  disarm(): void;
  /** Script executions summed over every primary (INFO commandstats, read directly). */
  executions(): Promise<number>;
  stop(): Promise<void>;
}

type NatTable = Readonly<Record<string, { readonly host: string; readonly port: number }>>;

/**
 * A MOVED/ASK redirect with its target address translated through the NAT table (unchanged when it
 * is no redirect or the address is not in the table).
 */
export function natMappedRedirect(error: Error, nat: NatTable): Error {
  const m = /^(MOVED|ASK) (\d+) (\S+)$/.exec(error.message);
  const to = m ? nat[m[3]!] : undefined;
  if (!m || !to) return error;
  return Object.assign(new Error(`${m[1]} ${m[2]} ${to.host}:${to.port}`), { name: error.name });
}

/**
 * ioredis records a MOVED target in its slot table as the server wrote it, without natMap, while
 * its connection pool is keyed by the mapped address (redis/ioredis#1582). Every retry then misses
 * the pool and goes to a random node until a background slot refresh lands; when the lost reply
 * has just closed a node's connection, a call can exhaust its 16 redirections first ("Too many
 * Cluster redirections") — more often the more loaded the machine. Translating the redirect first
 * keeps the slot table in the proxies' address space, so a MOVED is followed in one hop, exactly
 * as it is without a NAT.
 */
export class NatMappedCluster extends Cluster {
  constructor(seeds: readonly { host: string; port: number }[], options: ClusterOptions) {
    // clusterClientOptions() leaves redisOptions.replyMapping unset: the legacy mapping.
    super([...seeds], options as ConstructorParameters<typeof Cluster<'legacy'>>[1]);
  }

  override handleError(...[error, ttl, handlers]: Parameters<Cluster['handleError']>): void {
    const nat = this.options.natMap;
    super.handleError(nat && typeof nat === 'object' ? natMappedRedirect(error, nat) : error, ttl, handlers);
  }
}

export async function startReplyDropper(topology: Topology): Promise<ReplyDropper> {
  if (!topology.owned) throw new Error('lost-reply faults need a topology the harness owns');
  const primaries = topology.nodes.filter((n) => n.role === 'primary');
  const proxies = new Map<string, FaultProxy>();
  const direct: ValkeyClient[] = [];
  const stopAll = async () => {
    await Promise.all(direct.map(closeClient));
    await Promise.all([...proxies.values()].map((p) => p.stop()));
  };
  try {
    for (const n of primaries) {
      proxies.set(`${n.host}:${n.port}`, await new FaultProxy(n).start());
      direct.push(createClient({ kind: 'standalone', host: n.host, port: n.port }));
    }
    const prefix = topology.keyPrefix ? { keyPrefix: topology.keyPrefix } : {};
    let client: ValkeyClient;
    let proxyFor: (key: string) => FaultProxy;
    if (topology.spec.kind === 'standalone') {
      const only = [...proxies.values()][0]!;
      client = createClient({ kind: 'standalone', host: '127.0.0.1', port: only.port }, prefix);
      proxyFor = () => only;
    } else {
      const natMap: Record<string, { host: string; port: number }> = {};
      for (const [addr, p] of proxies) natMap[addr] = { host: '127.0.0.1', port: p.port };
      const cluster = new NatMappedCluster([...proxies.values()].map((p) => ({ host: '127.0.0.1', port: p.port })), { ...clusterClientOptions(natMap), ...prefix });
      cluster.on('error', () => {});
      client = cluster;
      const owner = await slotOwners(direct[0]!);
      proxyFor = (key) => {
        const addr = owner[keySlot(topology.keyPrefix + key)];
        const p = addr === undefined ? undefined : proxies.get(addr);
        if (!p) throw new Error(`no proxy for the node owning ${key}`);
        return p;
      };
    }
    return {
      client,
      armDrop: async (key) => {
        const proxy = proxyFor(key);
        if (client instanceof Cluster) await Promise.all(client.nodes('master').map((n) => n.ping()));
        else await client.ping();
        proxy.dropNextReply();
      },
      disarm: () => proxies.forEach((p) => p.disarm()),
      executions: () => totalScriptExecutions(direct),
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
