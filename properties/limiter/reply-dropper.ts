/**
 * Lost replies on any owned topology, on the foundation's FaultProxy: a proxy in front of every
 * primary, a client that reaches every node only through them (a Cluster client maps the announced
 * node addresses with natMap), and execution counts read directly from the nodes. A lost reply is
 * the "connection failure after send" of the no-resend rule: the script executed, the caller
 * cannot know. (Arm a drop only while the client under test has its one call in flight.)
 */
import { Cluster } from 'ioredis';
import { keySlot } from '../../src/valkey/slots.js';
import { closeClient, createClient, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
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

export async function startReplyDropper(topology: Topology): Promise<ReplyDropper> {
  if (!topology.owned) throw new Error('lost-reply faults need a topology the harness owns');
  const primaries = topology.nodes.filter((n) => n.role === 'primary');
  const proxies = new Map<string, FaultProxy>();
  const direct: ValkeyClient[] = [];
  let client: ValkeyClient | undefined;
  const stopAll = async () => {
    // The client under test too: a setup step that fails after it was created must not leak it.
    if (client) await closeClient(client);
    await Promise.all(direct.map(closeClient));
    await Promise.all([...proxies.values()].map((p) => p.stop()));
  };
  try {
    for (const n of primaries) {
      proxies.set(`${n.host}:${n.port}`, await new FaultProxy(n).start());
      direct.push(createClient({ kind: 'standalone', host: n.host, port: n.port }));
    }
    const prefix = topology.keyPrefix ? { keyPrefix: topology.keyPrefix } : {};
    let proxyFor: (key: string) => FaultProxy;
    if (topology.spec.kind === 'standalone') {
      const only = [...proxies.values()][0]!;
      client = createClient({ kind: 'standalone', host: '127.0.0.1', port: only.port }, prefix);
      proxyFor = () => only;
    } else {
      const natMap: Record<string, { host: string; port: number }> = {};
      for (const [addr, p] of proxies) natMap[addr] = { host: '127.0.0.1', port: p.port };
      client = createClient({ kind: 'cluster', seeds: [...proxies.values()].map((p) => ({ host: '127.0.0.1', port: p.port })) }, { ...prefix, natMap });
      const owner = await slotOwners(direct[0]!);
      proxyFor = (key) => {
        const addr = owner[keySlot(topology.keyPrefix + key)];
        const p = addr === undefined ? undefined : proxies.get(addr);
        if (!p) throw new Error(`no proxy for the node owning ${key}`);
        return p;
      };
    }
    const subject: ValkeyClient = client;
    return {
      client: subject,
      armDrop: async (key) => {
        const proxy = proxyFor(key);
        if (subject instanceof Cluster) await Promise.all(subject.nodes('master').map((n) => n.ping()));
        else await subject.ping();
        proxy.dropNextReply();
      },
      disarm: () => proxies.forEach((p) => p.disarm()),
      executions: () => totalScriptExecutions(direct),
      stop: stopAll,
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
