/**
 * The design's headline figure, counted by the servers: a warm limiter decision is
 * one Valkey round trip — the client sends exactly one command (CLIENT LIST tot-cmds), and it is an
 * EVALSHA (INFO commandstats), on a standalone node and on a 3-shard cluster. A cold one (the script
 * cache flushed) is two: EVALSHA answered NOSCRIPT, then EVAL. `npm run bench -- limiter` prints the
 * same counts for a longer run.
 */
import { expect, it } from 'vitest';
import { closeClient, nodeClient } from '../../src/valkey/index.js';
import { CommandCounter } from '../../src/valkey/command-stats.js';
import { bucketSpec, Limiter } from '../../src/systems/limiter/index.js';
import { describeOnTopologies } from './on-topologies.js';

const SPEC = bucketSpec({ capacity: 100, refillPerSecond: 1000, idleTtlMs: 60_000 });
const SECOND = bucketSpec({ capacity: 1000, refillPerSecond: 10_000, idleTtlMs: 60_000 });
const N = 200;

describeOnTopologies('round trips per limiter decision', (topology) => {
  it(`warm: ${N} sequential decisions are ${N} client commands, every one an EVALSHA`, async () => {
    const t = topology();
    const client = t.client();
    const counter = await CommandCounter.open(t.nodes);
    try {
      const limiter = new Limiter(client);
      const pair = (i: number) =>
        [
          { key: `rt:{c${i % 10}}:standard`, spec: SPEC },
          { key: `rt:{c${i % 10}}:shared`, spec: SECOND },
        ] as const;
      // Warm: the script loaded on every node a decision will reach, the cluster's slot map known.
      for (let i = 0; i < 10; i++) await limiter.allowOrdered(...pair(i));
      const before = await counter.read();
      for (let i = 0; i < N; i++) expect((await limiter.allowOrdered(...pair(i))).kind).toBe('decided');
      const d = counter.between(before, await counter.read());
      const show = JSON.stringify({ calls: [...d.calls], sent: [...d.clientSent], ran: [...d.scriptRan] });
      // The round trips: what clients sent, by the server's own MONITOR.
      expect(d.clientCommands, show).toBe(N);
      expect([...d.clientSent]).toEqual([['evalsha', N]]);
      // commandstats agrees: N EVALSHA, no EVAL, no SCRIPT, and every other call one the script ran inside.
      expect(d.calls.get('evalsha')).toBe(N);
      expect(d.calls.get('eval') ?? 0).toBe(0);
      for (const [k, v] of d.calls) if (k !== 'evalsha') expect(d.scriptRan.get(k), `${k}: ${show}`).toBe(v);
    } finally {
      await counter.close();
      await closeClient(client);
    }
  });

  it('cold (script cache flushed): one decision is two client commands, EVALSHA (NOSCRIPT) then EVAL', async () => {
    const t = topology();
    const client = t.client();
    const counter = await CommandCounter.open(t.nodes);
    try {
      const limiter = new Limiter(client);
      await limiter.allowOrdered({ key: 'rt:{cold}:a', spec: SPEC }); // the cluster client learns its slot map
      for (const n of t.nodes) {
        const admin = nodeClient(n);
        await admin.call('SCRIPT', 'FLUSH');
        await closeClient(admin);
      }
      const before = await counter.read();
      expect((await limiter.allowOrdered({ key: 'rt:{cold}:a', spec: SPEC }, { key: 'rt:{cold}:b', spec: SECOND })).kind).toBe('decided');
      const d = counter.between(before, await counter.read());
      expect(d.clientCommands, JSON.stringify([...d.clientSent])).toBe(2);
      expect(new Map(d.clientSent)).toEqual(
        new Map([
          ['evalsha', 1],
          ['eval', 1],
        ]),
      );
      expect(d.calls.get('evalsha')).toBe(1);
      expect(d.calls.get('eval')).toBe(1);
    } finally {
      await counter.close();
      await closeClient(client);
    }
  });
});
