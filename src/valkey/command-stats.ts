import { createConnection, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { closeClient, nodeClient } from './client.js';
import type { NodeInfo } from './types.js';

/**
 * What the servers executed, counted by the servers, summed over the given nodes:
 * - `INFO commandstats`: calls per command — the commands a script runs inside included;
 * - `MONITOR`: who sent each — a client (one round trip each when it awaits every reply) or a
 *   script (source `lua`) — checked against commandstats, command by command.
 * The reading connections' own commands are left out, so a reading before and one after measure
 * exactly what the other clients did in between. For topologies the harness owns (nothing else
 * talks to them); CLIENT LIST's tot-cmds cannot tell: it counts a script's commands for its caller.
 */
export interface CommandCounts {
  /** Calls per command (`evalsha`, `hmget`, `cluster|slots`), every node summed. */
  readonly calls: ReadonlyMap<string, number>;
  /** How many nodes were read. */
  readonly nodes: number;
}

export interface CommandsBetween {
  /** Calls per command between the two readings (commandstats). */
  readonly calls: ReadonlyMap<string, number>;
  /** The commands clients sent (MONITOR, a client's address): the round trips. */
  readonly clientSent: ReadonlyMap<string, number>;
  /** The commands scripts ran (MONITOR source lua). */
  readonly scriptRan: ReadonlyMap<string, number>;
  /** Σ clientSent. */
  readonly clientCommands: number;
}

/** `cmdstat_evalsha:calls=12,…,rejected_calls=1,…` → evalsha 13 (a rejected call was sent too). */
export function parseCommandStats(info: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_(\S+?):calls=(\d+)(?:,.*?rejected_calls=(\d+))?/gm)) out.set(m[1]!, Number(m[2]) + Number(m[3] ?? 0));
  return out;
}

/** A MONITOR line's command as commandstats names it: `evalsha`, `script|load`, `cluster|slots`. */
export function monitorCommand(args: readonly string[]): string {
  const name = (args[0] ?? '').toLowerCase();
  const sub = args[1]?.toLowerCase();
  return CONTAINERS.has(name) && sub !== undefined ? `${name}|${sub}` : name;
}

/** Commands whose commandstats name carries their subcommand. */
const CONTAINERS = new Set(['script', 'cluster', 'client', 'config', 'function', 'acl', 'command', 'object', 'memory', 'xinfo', 'xgroup', 'latency', 'module', 'slowlog', 'pubsub']);

const add = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
const sum = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * One reader connection and one MONITOR per node. Use: open, read (before), run what is measured,
 * read (after), between(before, after). Nothing but the measured clients may talk to the nodes
 * meanwhile. The readers' own commands are taken out — in commandstats, the one INFO each earlier
 * reading cost; in MONITOR, by their address — and each reading waits until MONITOR has seen every
 * command commandstats counted, so the two agree command by command.
 */
export interface Reading extends CommandCounts {
  readonly sent: ReadonlyMap<string, number>;
  readonly ran: ReadonlyMap<string, number>;
}

export class CommandCounter {
  /** commandstats when the monitors started, and readings (INFOs) since: what the readers cost. */
  private start: ReadonlyMap<string, number> = new Map();
  private readings = 0;

  private constructor(
    private readonly readers: readonly Redis[],
    private readonly monitors: readonly Socket[],
    private readonly tally: { readonly sent: Map<string, number>; readonly ran: Map<string, number> },
  ) {}

  static async open(nodes: readonly Pick<NodeInfo, 'host' | 'port'>[]): Promise<CommandCounter> {
    const readers = nodes.map((n) => nodeClient(n));
    try {
      // The readers' addresses as the server sees them (MONITOR names a client by it).
      const own = new Set(await Promise.all(readers.map(async (r) => /(?:^|\s)addr=(\S+)/.exec(String(await r.call('CLIENT', 'INFO')))?.[1] ?? '')));
      const tally = { sent: new Map<string, number>(), ran: new Map<string, number>() };
      const monitors = await Promise.all(
        nodes.map((n) =>
          openMonitor(n, (source, args) => {
            if (!own.has(source)) add(source === 'lua' ? tally.ran : tally.sent, monitorCommand(args));
          }),
        ),
      );
      const c = new CommandCounter(readers, monitors, tally);
      c.start = (await c.stats()).calls;
      c.readings = 1;
      return c;
    } catch (err) {
      await Promise.all(readers.map((r) => closeClient(r)));
      throw err;
    }
  }

  private async stats(): Promise<CommandCounts> {
    const per = await Promise.all(this.readers.map(async (c) => parseCommandStats(String(await c.info('commandstats')))));
    const calls = new Map<string, number>();
    for (const p of per) for (const [k, v] of p) add(calls, k, v);
    return { calls, nodes: per.length };
  }

  /** commandstats of every node now, and what MONITOR has seen by then (at most `waitMs` to catch up). */
  async read(waitMs = 5000): Promise<Reading> {
    const now = await this.stats();
    const expected = sum(now.calls) - sum(this.start) - this.readings * now.nodes;
    this.readings++;
    const deadline = Date.now() + waitMs;
    while (sum(this.tally.sent) + sum(this.tally.ran) < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return { ...now, sent: new Map(this.tally.sent), ran: new Map(this.tally.ran) };
  }

  /** What the measured clients did between two readings. */
  between(before: Reading, after: Reading): CommandsBetween {
    const diff = (a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, reader = 0) => {
      const out = new Map<string, number>();
      for (const [k, v] of a) {
        const d = v - (b.get(k) ?? 0) - (k === 'info' ? reader : 0);
        if (d > 0) out.set(k, d);
      }
      return out;
    };
    const clientSent = diff(after.sent, before.sent);
    return { calls: diff(after.calls, before.calls, after.nodes), clientSent, scriptRan: diff(after.ran, before.ran), clientCommands: sum(clientSent) };
  }

  async close(): Promise<void> {
    for (const m of this.monitors) m.destroy();
    await Promise.all(this.readers.map((c) => closeClient(c)));
  }
}

/**
 * A raw MONITOR connection (RESP2: `+OK`, then one simple string per command:
 * `+1700000000.123456 [0 127.0.0.1:5000] "evalsha" "…"`, source `lua` for a script's own), resolved
 * once the server said OK. Raw, not ioredis: a client's own handshake replies racing the first
 * MONITOR lines break its command queue.
 */
function openMonitor(node: Pick<NodeInfo, 'host' | 'port'>, onCommand: (source: string, args: string[]) => void): Promise<Socket> {
  return new Promise((resolveOpen, reject) => {
    const sock = createConnection({ host: node.host, port: node.port });
    let buf = '';
    let ok = false;
    sock.setEncoding('latin1');
    sock.once('error', reject);
    sock.on('connect', () => sock.write('MONITOR\r\n'));
    sock.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        if (!ok) {
          if (line !== '+OK') return reject(new Error(`MONITOR on ${node.host}:${node.port}: ${line}`));
          ok = true;
          sock.removeListener('error', reject);
          sock.on('error', () => {});
          resolveOpen(sock);
          continue;
        }
        const m = /^\+\d+\.\d+ \[\d+ (\S+)\] (.*)$/.exec(line);
        if (m)
          onCommand(
            m[1]!,
            [...m[2]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((a) => a[1]!),
          );
      }
    });
  });
}
