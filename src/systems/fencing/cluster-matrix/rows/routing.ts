/**
 * Row "routing": every command family the relay uses, through a cluster client authenticated as
 * the relay's ACL user, while its slot migrates: with the keys moved and the slot still MIGRATING
 * the source answers ASK, after SETSLOT NODE it answers MOVED (both seen raw on a direct
 * connection, so the redirect is known to have been met); the client must follow both and every
 * result must be right. The ACL user must be refused, clearly, what the relay does not need.
 */
import { randomBytes } from 'node:crypto';
import { closeClient, createClient, nodeClient, type ValkeyClient } from '../../../../valkey/index.js';
import { classifyFault } from '../../../../valkey/fault.js';
import { keySlot } from '../../../../valkey/slots.js';
import { loadFencingScripts } from '../../scripts.js';
import { currentSlotMap } from '../../../../valkey/cluster-map.js';
import { askingCalls, beginSlotMigration } from '../reshard.js';
import { relayFamilies } from '../routing/families.js';
import { RELAY_USER, setRelayUser } from '../routing/acl.js';
import { verdictOf, type G2Row } from '../types.js';
import { sleep } from '../stats.js';

/** How long a migration stays open while a family's command is under way (within ioredis's TRYAGAIN retries: 16 × 50 ms). */
const FINISH_AFTER_MS = 250;

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

/** Forbidden to the relay user: each must fail with NOPERM naming what is missing. */
const OUTSIDE: readonly { what: string; run: (c: ValkeyClient) => Promise<unknown>; names: RegExp }[] = [
  { what: 'CONFIG GET (a command the relay does not need)', run: (c) => c.call('CONFIG', 'GET', 'maxmemory'), names: /NOPERM.*'config\|get'/ },
  { what: 'GET other:key (a key outside buzz:* and mesh:*)', run: (c) => c.get('other:key'), names: /NOPERM.*key/ },
  { what: 'SPUBLISH other:channel (a channel outside buzz:*)', run: (c) => c.spublish('other:channel', 'x'), names: /NOPERM.*channel/ },
];

export const routingRow: G2Row<RoutingVariant> = {
  name: 'routing',
  surface: 'Routing (MOVED/ASK, ACL auth)',
  topology: { kind: 'cluster', shards: 3 },
  variants: ROUTING_VARIANTS,
  async run(ctx, variant) {
    const { topology } = ctx;
    const password = randomBytes(12).toString('hex');
    await setRelayUser(topology.nodes, password, variant === 'acl-missing-evalsha' ? ['evalsha', 'eval'] : []);
    const map = await currentSlotMap(topology);
    const seeds = map.primaries.map(({ host, port }) => ({ host, port }));
    const relay = createClient({ kind: 'cluster', seeds, username: RELAY_USER, password });
    const families = relayFamilies(loadFencingScripts());
    const errors: string[] = [];
    const wrong: string[] = [];
    const seen: string[] = [];
    const asks0 = await askingCalls(map.primaries);
    try {
      for (const f of families) {
        const slot = keySlot(f.keys[0]!);
        if (f.keys.some((k) => keySlot(k) !== slot)) throw new Error(`family ${f.name}: keys in more than one slot`);
        // The implementation under test: the cluster client, or (broken) one connection to the slot's owner as it was.
        const owner = map.owner(slot);
        const direct = variant === 'no-follow' ? nodeClient({ ...owner, username: RELAY_USER, password }) : undefined;
        const client: ValkeyClient = direct ?? relay;
        const raw = nodeClient({ ...owner, username: RELAY_USER, password });
        try {
          wrong.push(...(await attempt(errors, `${f.name} before migration`, () => f.op(client, 0))));
          const m = await beginSlotMigration(map.primaries, slot);
          try {
            await m.move(await m.remaining(100));
            const ask = await f.op(raw, 1).then(() => 'served', (err: unknown) => msg(err).split(' ')[0]!);
            // The client works through the redirects while the migration goes on and ends: a
            // multi-key read meets TRYAGAIN (a key missing on the importing node) until the slot is
            // finished, and must come through once it is.
            const during = attempt(errors, `${f.name} during migration`, () => f.op(client, 1));
            await sleep(FINISH_AFTER_MS);
            await m.move(await m.remaining(100));
            await m.finish();
            wrong.push(...(await during));
            const moved = await f.op(raw, 2).then(() => 'served', (err: unknown) => msg(err).split(' ')[0]!);
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
      const figures = {
        families: families.length,
        'raw replies during / after (ASK/MOVED)': seen.join('; '),
        'ASK redirects followed': asks,
        'MOVED seen raw': seen.filter((s) => s.endsWith('/MOVED')).length,
        'ACL refusals clear': `${refused.length}/${OUTSIDE.length}`,
      };
      return { errors: verdictOf(errors), silentlyWrong: verdictOf(wrong), figures, notes: [`ACL user '${RELAY_USER}': only the relay's commands, keys buzz:* mesh:*, channels buzz:*`] };
    } finally {
      await closeClient(relay);
    }
  },
};
