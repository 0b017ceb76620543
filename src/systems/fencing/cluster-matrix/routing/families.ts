/**
 * The command families the relay sends (the design's inventory), each as one repeatable operation on
 * keys that share one slot, judged by its results: round r writes what round r must read back.
 */
import type { ValkeyClient } from '../../../../valkey/index.js';
import { cClient } from '../../clients/index.js';
import type { FencingScripts } from '../../scripts.js';

export interface Family {
  readonly name: string;
  /** Every key (and shard channel) of the family: one hash tag, so one slot. */
  readonly keys: readonly string[];
  /** Round r on `c`; returns what was wrong (empty when every result was right). Throws what the server or client threw. */
  op(c: ValkeyClient, r: number): Promise<string[]>;
}

const tagged = (f: string, ...names: string[]) => names.map((n) => `buzz:route:{${f}}:${n}`);

export function relayFamilies(scripts: FencingScripts): Family[] {
  const fam = (name: string, keys: string[], op: Family['op']): Family => ({ name, keys, op });
  const [s1] = tagged('string', 'k');
  const [g1] = tagged('guard', 'nonce');
  const [m1, m2, m3] = tagged('mget', 'a', 'b', 'missing');
  const [z1] = tagged('index', 'z');
  const [e1] = tagged('expire', 'k');
  const [p1] = tagged('spublish', 'ch');
  const session = { community: 'route', session: 'script' };
  let lastGen = 0;
  return [
    fam('GET/SET', [s1!], async (c, r) => {
      await c.set(s1!, `v${r}`);
      const v = await c.get(s1!);
      return v === `v${r}` ? [] : [`GET read ${JSON.stringify(v)} after SET v${r}`];
    }),
    fam('SET NX EX (replay guard)', [g1!], async (c, r) => {
      const first = await c.set(`${g1!}${r}`, '1', 'EX', 60, 'NX');
      const again = await c.set(`${g1!}${r}`, '1', 'EX', 60, 'NX');
      return first === 'OK' && again === null ? [] : [`SET NX answered ${first}, then ${again} (want OK, then nil)`];
    }),
    fam('MGET (one slot)', [m1!, m2!, m3!], async (c, r) => {
      await c.set(m1!, `a${r}`);
      await c.set(m2!, `b${r}`);
      const v = await c.mget(m1!, m2!, m3!);
      return JSON.stringify(v) === JSON.stringify([`a${r}`, `b${r}`, null]) ? [] : [`MGET read ${JSON.stringify(v)}`];
    }),
    fam('ZADD/ZRANGEBYSCORE/ZREMRANGEBYSCORE (index)', [z1!], async (c, r) => {
      const now = Date.now();
      await c.zadd(z1!, now + 60_000, `live${r}`, now - 60_000, `dead${r}`);
      const live = await c.zrangebyscore(z1!, `(${now}`, '+inf');
      const pruned = await c.zremrangebyscore(z1!, '-inf', now);
      const out: string[] = [];
      if (!live.includes(`live${r}`) || live.some((m) => m.startsWith('dead'))) out.push(`ZRANGEBYSCORE read ${JSON.stringify(live)}`);
      if (pruned !== 1) out.push(`ZREMRANGEBYSCORE pruned ${pruned} (want 1)`);
      return out;
    }),
    fam('EVALSHA (fencing C acquire/release)', [`buzz:tunnel:{route:script}:lease`, `buzz:tunnel:{route:script}:generation`], async (c, r) => {
      const client = cClient({ conn: c, scripts, session });
      const a = await client.acquire(`pod${r}`, { ttlMs: 30_000, maxGen: 1_000_000 });
      if (a.kind !== 'ok') return [`acquire answered ${a.kind}`];
      const out = a.gen === lastGen + 1 ? [] : [`acquire issued generation ${a.gen} after ${lastGen}`];
      lastGen = a.gen;
      const rel = await client.release(`pod${r}`, a.gen);
      if (rel.kind !== 'released') out.push(`release answered ${rel.kind}`);
      return out;
    }),
    fam('PEXPIRE/DEL', [e1!], async (c, r) => {
      await c.set(e1!, `e${r}`);
      const ex = await c.pexpire(e1!, 60_000);
      const del = await c.del(e1!);
      return ex === 1 && del === 1 ? [] : [`PEXPIRE answered ${ex}, DEL ${del} (want 1, 1)`];
    }),
    fam('SPUBLISH', [p1!], async (c) => {
      const n = await c.spublish(p1!, 'hello');
      return typeof n === 'number' ? [] : [`SPUBLISH answered ${JSON.stringify(n)}`];
    }),
  ];
}
