/**
 * The remedy's price on a healthy 3×1 cluster: sessions of every shard acquire as a fresh owner and
 * release, back to back, through one cluster client (the C client, with or without WAIT). Each
 * acquire is timed with performance.now() (the drill's call records have millisecond resolution).
 */
import { performance } from 'node:perf_hooks';
import { cClient } from '../clients/index.js';
import { closeClient, createClient, type Topology } from '../../../valkey/index.js';
import { keySlot } from '../../../valkey/slots.js';
import { newLeaseKey } from '../keys.js';
import type { FencingScripts } from '../scripts.js';
import { currentSlotMap } from '../../../valkey/cluster-map.js';
import { percentile, sleep } from '../cluster-matrix/stats.js';
import { namesOnEvery } from '../cluster-matrix/drills/failover.js';
import type { ConfirmOptions } from '../../../valkey/scripts/eval-confirmed.js';

export interface CostFigures {
  readonly remedy: string;
  readonly durationMs: number;
  readonly acquires: number;
  readonly acquiresPerSec: number;
  readonly callsPerSec: number;
  readonly acquireP50Ms: number;
  readonly acquireP99Ms: number;
  readonly unknown: number;
}

export async function measureCost(
  topology: Topology,
  scripts: FencingScripts,
  o: { community: string; confirm: ConfirmOptions | null; durationMs: number; sessionsPerShard?: number },
): Promise<CostFigures> {
  const map = await currentSlotMap(topology);
  const sessions = namesOnEvery(
    map.primaries,
    map.owner,
    o.sessionsPerShard ?? 3,
    (i) => `s${i}`,
    (s) => keySlot(newLeaseKey({ community: o.community, session: s })),
  );
  const conn = createClient({ kind: 'cluster', seeds: map.primaries });
  try {
    const lat: number[] = [];
    let calls = 0;
    let unknown = 0;
    let running = true;
    const t0 = performance.now();
    const loops = [...sessions.values()].flat().map(async (s) => {
      const client = cClient({ conn, scripts, session: { community: o.community, session: s }, ...(o.confirm ? { confirmReplicas: o.confirm } : {}) });
      for (let i = 0; running; i++) {
        const start = performance.now();
        calls++;
        const a = await client.acquire(`p${i}`, { ttlMs: 120_000, maxGen: 1_000_000_000 }).catch(() => null);
        if (a?.kind !== 'ok') {
          // A healthy cluster answers every call; an unknown one is counted, and its lease left to expire.
          unknown++;
          await sleep(50);
          continue;
        }
        lat.push(performance.now() - start);
        calls++;
        await client.release(`p${i}`, a.gen).catch(() => unknown++);
      }
    });
    await sleep(o.durationMs);
    running = false;
    await Promise.all(loops);
    const elapsed = performance.now() - t0;
    const ms = (v: number) => Math.round(v * 100) / 100;
    return {
      remedy: o.confirm ? `WAIT ${o.confirm.replicas} ${o.confirm.timeoutMs}` : 'none',
      durationMs: Math.round(elapsed),
      acquires: lat.length,
      acquiresPerSec: Math.round((lat.length * 1000) / elapsed),
      callsPerSec: Math.round((calls * 1000) / elapsed),
      acquireP50Ms: ms(percentile(lat, 50)),
      acquireP99Ms: ms(percentile(lat, 99)),
      unknown,
    };
  } finally {
    await closeClient(conn);
  }
}
