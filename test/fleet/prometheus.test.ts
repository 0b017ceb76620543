import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startPrometheus, type PrometheusServer } from '../../src/fleet/prometheus.js';
import { isHarnessProcess, isRunning, listRecords, reapOrphans, recordServer } from '../../src/valkey/registry.js';
import { waitUntil } from '../../src/valkey/wait.js';

/** A loopback /metrics endpoint serving one gauge. */
async function metricsServer(text: string): Promise<{ server: Server; target: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return { server, target: `127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

async function query(prom: PrometheusServer, q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  return body.data.result;
}

describe('a real Prometheus started by the harness', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('scrapes its loopback targets, is recorded by PID, and leaves nothing when stopped', async () => {
    const m = await metricsServer('# TYPE relay_phase gauge\nrelay_phase{phase="B"} 1\n');
    cleanup.push(() => new Promise((r) => m.server.close(() => r())));
    const prom = await startPrometheus({ scrapeIntervalMs: 200, targets: [m.target] });
    cleanup.push(() => prom.stop());
    const rec = listRecords().find((r) => r.pid === prom.pid);
    expect(rec?.program).toBe('prometheus');
    expect(isHarnessProcess(rec!)).toBe(true);
    await waitUntil('the gauge scraped', async () => (await query(prom, 'relay_phase')).length === 1, 15_000, 100);
    const [sample] = await query(prom, 'relay_phase');
    expect(sample!.metric).toMatchObject({ phase: 'B', instance: m.target, job: 'fleet' });
    await prom.stop();
    expect(isRunning(prom.pid)).toBe(false);
    expect(existsSync(rec!.dir)).toBe(false);
    expect(listRecords().some((r) => r.pid === prom.pid)).toBe(false);
  });

  it('is reaped by PID once its owner is dead, like a valkey-server', async () => {
    const prom = await startPrometheus({ scrapeIntervalMs: 1000, targets: [] });
    cleanup.push(() => prom.stop());
    const rec = listRecords().find((r) => r.pid === prom.pid)!;
    // The owner's record as a dead process would leave it (PID 2^22 + 1 is beyond Linux's pid_max).
    recordServer({ ...rec, ownerPid: 4_194_305 });
    expect(reapOrphans()).toContain(prom.pid);
    await waitUntil('prometheus gone', async () => !isRunning(prom.pid), 5000);
    expect(existsSync(rec.dir)).toBe(false);
  });
});
