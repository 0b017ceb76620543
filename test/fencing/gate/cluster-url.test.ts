// `fencecheck gate --url` at one node of a cluster reads the whole cluster: every session, wherever
// its slot lives (the census used to end on the first MOVED reply).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { keySlot } from '../../../src/valkey/slots.js';
import { startTopology, type Topology, type ValkeyClient } from '../../../src/valkey/index.js';

const SESSIONS = 30;

describe('fencecheck gate --url at a cluster node (real 3-shard cluster)', () => {
  let topo: Topology;
  let conn: ValkeyClient;
  beforeAll(async () => {
    topo = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'native' });
    conn = topo.client();
    for (let i = 0; i < SESSIONS; i++) {
      // Half in the old keyspace, half in the new; their slots spread over all three shards.
      if (i % 2 === 0) await conn.set(`buzz:c:tunnel:s${i}:lease`, 'p1:1', 'PX', 60_000);
      else await conn.set(`buzz:tunnel:{c:s${i}}:lease`, 'p1:1', 'PX', 60_000);
    }
  }, 60_000);
  afterAll(async () => {
    conn?.disconnect();
    await topo?.stop();
  });

  it('counts every session from any node, and the keys really live on several shards', () => {
    const slots = new Set(Array.from({ length: SESSIONS }, (_, i) => keySlot(i % 2 === 0 ? `buzz:c:tunnel:s${i}:lease` : `buzz:tunnel:{c:s${i}}:lease`)));
    expect(slots.size).toBeGreaterThan(3);
    for (const node of topo.nodes.filter((n) => n.role === 'primary')) {
      const r = spawnSync(
        process.execPath,
        [join(projectRoot, 'bin/fencecheck.mjs'), 'gate', '--check', 'advance', '--url', `${node.host}:${node.port}`, '--target', 'B', '--pods', 'p1=B', '--json'],
        {
          cwd: projectRoot,
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      expect([0, 1], r.stderr).toContain(r.status);
      const report = JSON.parse(r.stdout) as { details: { observations: { oldLeaseCensus: number; newLeaseCensus: number; counters: unknown[] } } };
      expect(report.details.observations.oldLeaseCensus).toBe(SESSIONS / 2);
      expect(report.details.observations.newLeaseCensus).toBe(SESSIONS / 2);
      expect(report.details.observations.counters).toHaveLength(SESSIONS);
    }
  }, 90_000);
});
