/**
 * Row "routing": every command family the relay uses, through a cluster client authenticated as
 * the relay's ACL user, while its slot migrates: with the keys moved and the slot still MIGRATING
 * the source answers ASK, after SETSLOT NODE it answers MOVED (both seen raw on a direct
 * connection, so the redirect is known to have been met); the client must follow both and every
 * result must be right. The ACL user must be refused, clearly, what the relay does not need.
 *
 * Row "routing-tls" is the same over TLS (rediss://): a cluster whose nodes also serve TLS, with the
 * bus over TLS, and the relay connecting with the CA and a client certificate to the TLS ports only.
 * A TLS client must be redirected to TLS ports (MOVED/ASK name them, seen raw); a redirect to a
 * plain port would be a handshake with a server that does not speak it.
 */
import { randomBytes } from 'node:crypto';
import { closeClient, createClient, nodeClient, type Topology, type ValkeyClient } from '../../../../valkey/index.js';
import type { Credentials } from '../../../../valkey/types.js';
import { classifyFault } from '../../../../valkey/fault.js';
import { keySlot } from '../../../../valkey/slots.js';
import { loadFencingScripts } from '../../scripts.js';
import { currentSlotMap, type Endpoint } from '../../../../valkey/cluster-map.js';
import type { Redis } from 'ioredis';
import { askingCalls, beginSlotMigration, tryAgainReplies } from '../reshard.js';
import { relayFamilies } from '../routing/families.js';
import { RELAY_USER, setRelayUser } from '../routing/acl.js';
import { verdictOf, type MatrixRow } from '../types.js';
import { waitUntil } from '../../../../valkey/wait.js';

/** How often the row reads the importing node's TRYAGAIN count while a family's command is under way. */
const POLL_MS = 5;

export const ROUTING_VARIANTS = ['follow', 'no-follow', 'acl-missing-evalsha'] as const;
export type RoutingVariant = (typeof ROUTING_VARIANTS)[number];

const msg = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

/** Runs `f`; a thrown error becomes a finding of `into`. */
async function attempt(into: string[], label: string, f: () => Promise<string[]>): Promise<string[]> {
  try {
    return await f();
  } catch (err) {
    into.push(`${label}: ${msg(err)}`);
    return [];
  }
}

/**
 * Resolves once `during` has settled or the importing node has answered TRYAGAIN more than `before`
 * times. The slot is finished on this event, not after a fixed time: ioredis retries a TRYAGAIN
 * 50 ms later on a random primary, and each round costs 2–3 of its 16 redirections (MOVED, ASK,
 * TRYAGAIN), so a multi-key read gives up some 280–400 ms after it started; a finish timed at
 * 250 ms raced that budget and lost it under load. (`during` settles by the command timeout at the
 * latest, so the bound is never what ends the wait.)
 */
async function settledOrTriedAgain(during: Promise<unknown>, probe: Redis, before: number): Promise<void> {
  let settled = false;
  void during.then(() => {
    settled = true;
  });
  await waitUntil('the command to settle or meet TRYAGAIN', async () => settled || (await tryAgainReplies(probe)) > before, 60_000, POLL_MS);
}

/** Forbidden to the relay user: each must fail with NOPERM naming what is missing. */
const OUTSIDE: readonly { what: string; run: (c: ValkeyClient) => Promise<unknown>; names: RegExp }[] = [
  { what: 'CONFIG GET (a command the relay does not need)', run: (c) => c.call('CONFIG', 'GET', 'maxmemory'), names: /NOPERM.*'config\|get'/ },
  { what: 'GET other:key (a key outside buzz:* and mesh:*)', run: (c) => c.get('other:key'), names: /NOPERM.*key/ },
  { what: 'SPUBLISH other:channel (a channel outside buzz:*)', run: (c) => c.spublish('other:channel', 'x'), names: /NOPERM.*channel/ },
];

/**
 * Where the relay connects to a node: its plain port, or on a TLS topology its TLS port with the
 * topology's CA and client certificate. Throws when a TLS topology's node has no TLS port.
 */
function relayAddress(topology: Pick<Topology, 'nodes' | 'tls'>, e: Endpoint): Endpoint & Credentials {
  if (!topology.tls) return { host: e.host, port: e.port };
  const node = topology.nodes.find((n) => n.host === e.host && n.port === e.port);
  if (node?.tlsPort === undefined) throw new Error(`node ${e.host}:${e.port} has no TLS port`);
  return { host: e.host, port: node.tlsPort, tls: topology.tls };
}

/** The port a raw MOVED/ASK reply names (`MOVED 3999 127.0.0.1:6381`), or undefined. */
function redirectPort(message: string): number | undefined {
  const m = /^(?:MOVED|ASK) \d+ \S*:(\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

function makeRoutingRow(name: string, surface: string, tls: boolean): MatrixRow<RoutingVariant> {
  return {
    name,
    surface,
    topology: { kind: 'cluster', shards: 3, ...(tls && { tls: true }) },
    variants: ROUTING_VARIANTS,
    async run(ctx, variant) {
      const { topology } = ctx;
      if (tls && !topology.tls) throw new Error(`row ${name} needs a TLS topology; it got one without TLS`);
      const password = randomBytes(12).toString('hex');
      await setRelayUser(topology.nodes, password, variant === 'acl-missing-evalsha' ? ['evalsha', 'eval'] : []);
      const map = await currentSlotMap(topology);
      const at = (e: Endpoint) => relayAddress(topology, e);
      const tlsPorts = new Set(topology.nodes.flatMap((n) => (n.tlsPort !== undefined ? [n.tlsPort] : [])));
      const seeds = map.primaries.map((e) => ({ host: e.host, port: at(e).port }));
      const relay = createClient({ kind: 'cluster', seeds, username: RELAY_USER, password, ...(topology.tls && { tls: topology.tls }) });
      const redirectPorts: number[] = [];
      const families = relayFamilies(loadFencingScripts());
      const errors: string[] = [];
      const wrong: string[] = [];
      const seen: string[] = [];
      let tryAgains = 0;
      const asks0 = await askingCalls(map.primaries);
      try {
        for (const f of families) {
          const slot = keySlot(f.keys[0]!);
          if (f.keys.some((k) => keySlot(k) !== slot)) throw new Error(`family ${f.name}: keys in more than one slot`);
          // The implementation under test: the cluster client, or (broken) one connection to the slot's owner as it was.
          const owner = map.owner(slot);
          const direct = variant === 'no-follow' ? nodeClient({ ...at(owner), username: RELAY_USER, password }) : undefined;
          const client: ValkeyClient = direct ?? relay;
          const raw = nodeClient({ ...at(owner), username: RELAY_USER, password });
          const rawReply = (step: number) =>
            f.op(raw, step).then(
              () => 'served',
              (err: unknown) => {
                const port = redirectPort(msg(err));
                if (port !== undefined) redirectPorts.push(port);
                return msg(err).split(' ')[0]!;
              },
            );
          try {
            wrong.push(...(await attempt(errors, `${f.name} before migration`, () => f.op(client, 0))));
            const m = await beginSlotMigration(map.primaries, slot, topology.tls ? (e) => at(e).port : undefined);
            try {
              await m.move(await m.remaining(100));
              const ask = await rawReply(1);
              // The client works through the redirects while the migration goes on and ends: a
              // multi-key read meets TRYAGAIN (a key missing on the importing node) until the slot is
              // finished, and must come through once it is. The finish comes once the command is
              // done (it followed ASK) or has met TRYAGAIN, whichever is first.
              const probe = nodeClient(m.to);
              try {
                const before = await tryAgainReplies(probe);
                const during = attempt(errors, `${f.name} during migration`, () => f.op(client, 1));
                await settledOrTriedAgain(during, probe, before);
                await m.move(await m.remaining(100));
                await m.finish();
                wrong.push(...(await during));
                tryAgains += (await tryAgainReplies(probe)) - before;
              } finally {
                await closeClient(probe);
              }
              const moved = await rawReply(2);
              wrong.push(...(await attempt(errors, `${f.name} after migration`, () => f.op(client, 2))));
              seen.push(`${f.name}: ${ask}/${moved}`);
              if (moved !== 'MOVED') wrong.push(`${f.name}: the old owner answered ${moved} after the slot moved (want MOVED)`);
            } finally {
              await m.close();
            }
          } finally {
            await closeClient(raw);
            if (direct) await closeClient(direct);
          }
        }
        // Least privilege: what the relay does not need is refused, with a reason that names it.
        const refused: string[] = [];
        for (const o of OUTSIDE) {
          await o.run(relay).then(
            () => wrong.push(`the relay user may run ${o.what}`),
            (err: unknown) => {
              if (classifyFault(err)?.kind !== 'permission' || !o.names.test(msg(err))) wrong.push(`${o.what} failed unclearly: ${msg(err)}`);
              else refused.push(o.what);
            },
          );
        }
        const asks = (await askingCalls(map.primaries)) - asks0;
        // Over TLS every redirect must name a TLS port, and the client must be on TLS ports only.
        if (tls) {
          const plain = redirectPorts.filter((p) => !tlsPorts.has(p));
          if (plain.length > 0) wrong.push(`a TLS client was redirected to ${plain.length} port(s) without TLS (${[...new Set(plain)].join(', ')})`);
          const off = relayNodePorts(relay).filter((p) => !tlsPorts.has(p));
          if (off.length > 0) wrong.push(`the relay's cluster client holds connections to port(s) without TLS: ${off.join(', ')}`);
        }
        const figures = {
          transport: tls ? 'TLS (rediss://, client certificate)' : 'plain TCP',
          'redirects seen raw': redirectPorts.length,
          families: families.length,
          'raw replies during / after (ASK/MOVED)': seen.join('; '),
          'ASK redirects followed': asks,
          'TRYAGAIN answered during migrations': tryAgains,
          'MOVED seen raw': seen.filter((s) => s.endsWith('/MOVED')).length,
          'ACL refusals clear': `${refused.length}/${OUTSIDE.length}`,
        };
        return { errors: verdictOf(errors), silentlyWrong: verdictOf(wrong), figures, notes: [`ACL user '${RELAY_USER}': only the relay's commands, keys buzz:* mesh:*, channels buzz:*`] };
      } finally {
        await closeClient(relay);
      }
    },
  };
}

/** The ports of the node connections a Cluster client holds. */
function relayNodePorts(c: ValkeyClient): number[] {
  return 'nodes' in c ? c.nodes('all').map((n) => Number(n.options.port)) : [];
}

export const routingRow = makeRoutingRow('routing', 'Routing (MOVED/ASK, ACL auth)', false);
export const routingTlsRow = makeRoutingRow('routing-tls', 'Routing over TLS (rediss://, MOVED/ASK, ACL auth)', true);
