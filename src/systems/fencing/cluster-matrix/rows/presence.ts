/**
 * Row "presence": the relay's bulk presence read (MGET of buzz:<community>:presence:<pubkey>)
 * split per slot on 3 shards must answer in request order with nil in place of every missing key —
 * in steady state and while slots holding presence keys migrate live. Judged value by value against
 * the keys the row wrote.
 */
import { mulberry32 } from '../../../../core/random.js';
import { closeClient } from '../../../../valkey/index.js';
import { keySlot } from '../../../../valkey/slots.js';
import { currentSlotMap } from '../../../../valkey/cluster-map.js';
import { askingCalls, migrateSlotLive } from '../reshard.js';
import { splitMget, type MgetOrder } from '../split-mget.js';
import { verdictOf, type MatrixRow } from '../types.js';

export const PRESENCE_VARIANTS = ['request', 'by-slot', 'compact'] as const satisfies readonly MgetOrder[];
export type PresenceVariant = (typeof PRESENCE_VARIANTS)[number];

const PUBKEYS = 120;
const BATCH = 30;
const STEADY_BATCHES = 40;

const presenceKey = (i: number) => `buzz:c${i % 4}:presence:npub${(i * 2654435761) >>> 0}`;

function* batches(seed: number): Generator<number[], never> {
  const rnd = mulberry32(seed);
  for (;;) yield Array.from({ length: BATCH }, () => Math.floor(rnd() * PUBKEYS));
}

export const presenceRow: MatrixRow<PresenceVariant> = {
  name: 'presence',
  surface: 'Presence MGET (split per node)',
  topology: { kind: 'cluster', shards: 3 },
  variants: PRESENCE_VARIANTS,
  async run(ctx, order) {
    const client = ctx.topology.client();
    try {
      // Two in three pubkeys are present; the rest must read as nil, in place.
      const expected = new Map<string, string | null>();
      for (let i = 0; i < PUBKEYS; i++) {
        const k = presenceKey(i);
        const v = i % 3 === 2 ? null : `online:${i}`;
        expected.set(k, v);
        if (v !== null) await client.set(k, v, 'EX', 90);
      }
      const errors: string[] = [];
      const wrong: string[] = [];
      let reads = 0;
      let keysRead = 0;
      let nils = 0;
      const gen = batches(7);
      const check = async (phase: string) => {
        const keys = (gen.next().value as number[]).map(presenceKey);
        reads++;
        keysRead += keys.length;
        try {
          const got = await splitMget(client, keys, order);
          const want = keys.map((k) => expected.get(k) ?? null);
          nils += want.filter((v) => v === null).length;
          if (got.length !== want.length) wrong.push(`${phase} read ${reads}: ${got.length} values for ${want.length} keys`);
          else {
            const i = want.findIndex((v, j) => got[j] !== v);
            if (i >= 0) wrong.push(`${phase} read ${reads}: position ${i} (${keys[i]}) is ${JSON.stringify(got[i])}, expected ${JSON.stringify(want[i])}`);
          }
        } catch (err) {
          errors.push(`${phase} read ${reads}: ${(err as Error).message}`);
        }
      };
      for (let i = 0; i < STEADY_BATCHES; i++) await check('steady');
      // During a reshard: three slots holding presence keys move one key at a time.
      const map = await currentSlotMap(ctx.topology);
      const slots = [...new Set([...expected].filter(([, v]) => v !== null).map(([k]) => keySlot(k)))].slice(0, 3);
      const ask0 = await askingCalls(map.primaries);
      let moving = true;
      let duringReads = 0;
      const reader = (async () => {
        while (moving) {
          await check('during reshard');
          duringReads++;
        }
      })();
      for (const s of slots) await migrateSlotLive(map.primaries, s, { batch: 1, pauseMs: 30 });
      moving = false;
      await reader;
      for (let i = 0; i < 10; i++) await check('after reshard');
      const asks = (await askingCalls(map.primaries)) - ask0;
      const figures = {
        'keys (present / missing)': `${[...expected.values()].filter((v) => v !== null).length}/${[...expected.values()].filter((v) => v === null).length}`,
        reads,
        'keys read': keysRead,
        'nils expected': nils,
        'reads during reshard': duringReads,
        'slots migrated': slots.length,
        'ASK redirects met': asks,
        'wrong reads': wrong.length,
      };
      return { errors: verdictOf(errors), silentlyWrong: verdictOf(wrong), figures, notes: [] };
    } finally {
      await closeClient(client);
    }
  },
};
