/**
 * `fencecheck gate` reading the fleet for itself, end to end: real Valkey for the keyspace, pods'
 * /metrics served on loopback, a real Prometheus scraping them, ReplicaSets as kubectl prints them,
 * and the deploy record the gate writes. Each fail-closed case names its rule or its source, with
 * the exit code the README gives it.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedTempDir, removeTempDir } from '../../../src/core/temp-dir.js';
import { startTopology, type Topology } from '../../../src/valkey/index.js';
import { startPrometheus, type PrometheusServer } from '../../../src/fleet/prometheus.js';
import { waitUntil } from '../../../src/valkey/wait.js';
import { freeLoopbackPort } from '../../../src/valkey/ports.js';
import { fencecheckCli } from '../../support/cli.js';

interface Pod {
  readonly name: string;
  body: string;
  readonly server: Server;
  readonly address: string;
}

const gauge = (pod: string, ...phases: string[]) => `# TYPE buzz_fencing_phase gauge\n${phases.map((p) => `buzz_fencing_phase{pod="${pod}",phase="${p}"} 1`).join('\n')}\n`;

async function startPod(name: string, phase: string): Promise<Pod> {
  const pod = { name, body: gauge(name, phase) } as Pod & { body: string };
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(pod.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  return Object.assign(pod, { server, address: `127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` });
}

const rsJson = (sets: readonly [name: string, revision: number, replicas: number][]) =>
  JSON.stringify({
    kind: 'ReplicaSetList',
    items: sets.map(([name, rev, n]) => ({
      kind: 'ReplicaSet',
      metadata: { name, annotations: { 'deployment.kubernetes.io/revision': String(rev) } },
      spec: { replicas: n },
      status: { replicas: n },
    })),
  });

describe('fencecheck gate reads the fleet (real Valkey, real Prometheus)', () => {
  let topo: Topology;
  let url: string;
  let dir: string;
  let pods: Pod[];
  let prom: PrometheusServer;
  const file = (name: string) => join(dir, name);
  const metricsArgs = () => pods.flatMap((p) => ['--metrics', `http://${p.address}/metrics`]);
  const gate = (check: string, ...args: string[]) => fencecheckCli(['gate', '--check', check, '--url', url, ...args], {}, { timeoutMs: 60_000 });

  beforeAll(async () => {
    topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    url = `${topo.nodes[0]!.host}:${topo.nodes[0]!.port}`;
    dir = ownedTempDir('fleet-gate');
    pods = [await startPod('relay-a-x1', 'A'), await startPod('relay-a-x2', 'A')];
    writeFileSync(
      file('rs.json'),
      rsJson([
        ['relay-o', 1, 0],
        ['relay-a', 2, 2],
      ]),
    );
    prom = await startPrometheus({ scrapeIntervalMs: 200, targets: pods.map((p) => ({ address: p.address, labels: { pod: p.name } })) });
    await waitUntil(
      'both pods scraped',
      async () => {
        const res = await fetch(`${prom.url}/api/v1/query?query=buzz_fencing_phase`);
        return ((await res.json()) as { data: { result: unknown[] } }).data.result.length === 2;
      },
      20_000,
      100,
    );
  });
  afterAll(async () => {
    await prom?.stop();
    for (const p of pods ?? []) await new Promise((r) => p.server.close(r));
    await topo?.stop();
    if (dir) removeTempDir(dir);
  });

  const record = (target: string, backfilled = false) => {
    writeFileSync(file('record.json'), JSON.stringify({ format: 'fencecheck.deploy-record/1', target, mode: 'disabled', backfilled, history: [] }));
    return file('record.json');
  };

  it("allows from the pods' /metrics and from Prometheus, and --apply records the advance", async () => {
    for (const source of [metricsArgs(), ['--prometheus', prom.url]]) {
      const r = await gate('advance', ...source, '--replicasets', file('rs.json'), '--record', record('A'));
      expect(r.code, r.err + r.out).toBe(0);
    }
    const r = await gate('advance', '--prometheus', prom.url, '--replicasets', file('rs.json'), '--record', record('A'), '--apply');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(file('record.json'), 'utf8'))).toMatchObject({ target: 'B', history: [{ step: 'AdvanceTarget', target: 'B' }] });
  });

  it('a rollback granted with --apply moves the target back and clears the backfill record', async () => {
    writeFileSync(
      file('rs-b.json'),
      rsJson([
        ['relay-a', 2, 0],
        ['relay-b', 3, 2],
      ]),
    );
    pods[0]!.body = gauge('relay-b-x1', 'A');
    pods[1]!.body = gauge('relay-b-x2', 'A');
    try {
      const rec = record('B', true);
      const r = await gate('rollback', ...metricsArgs(), '--replicasets', file('rs-b.json'), '--record', rec, '--apply');
      expect(r.code, r.err + r.out).toBe(0);
      expect(JSON.parse(readFileSync(rec, 'utf8'))).toMatchObject({ target: 'A', backfilled: false });
    } finally {
      pods[0]!.body = gauge('relay-a-x1', 'A');
      pods[1]!.body = gauge('relay-a-x2', 'A');
    }
  });

  it('refuses, naming the rule, a pod that reports two phases and ReplicaSet counts that disagree', async () => {
    pods[1]!.body = gauge('relay-a-x2', 'A', 'B');
    try {
      const r = await gate('advance', ...metricsArgs(), '--replicasets', file('rs.json'), '--record', record('A'));
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/Fleet_OnePhasePerPod: pods reporting more than one phase: relay-a-x2=A\+B/);
    } finally {
      pods[1]!.body = gauge('relay-a-x2', 'A');
    }
    writeFileSync(
      file('rs3.json'),
      rsJson([
        ['relay-o', 1, 0],
        ['relay-a', 2, 3],
      ]),
    );
    const r = await gate('advance', ...metricsArgs(), '--replicasets', file('rs3.json'), '--record', record('A'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Fleet_ReplicaSetsMatchPods: ReplicaSets and pods disagree: relay-a has 3 pod\(s\), 2 report a phase/);
  });

  it('refuses an image change while an older ReplicaSet still runs (rule 2b), whatever the gauge says', async () => {
    writeFileSync(
      file('rs-old.json'),
      rsJson([
        ['relay-o', 1, 1],
        ['relay-a', 2, 2],
      ]),
    );
    const r = await gate('advance', ...metricsArgs(), '--replicasets', file('rs-old.json'), '--record', record('A'));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/ImageChange_OlderReplicaSetsAtZero: older ReplicaSets still running: relay-o \(revision 1\) 1\/1/);
  });

  it('refuses a stale sample: an exposition timestamp older than --max-age, and in Prometheus', async () => {
    const old = Date.now() - 120_000;
    pods[0]!.body = `buzz_fencing_phase{pod="relay-a-x1",phase="A"} 1 ${old}\n`;
    try {
      const r = await gate('advance', ...metricsArgs(), '--replicasets', file('rs.json'), '--record', record('A'), '--max-age', '60');
      expect(r.code, r.err).toBe(1);
      expect(r.out).toMatch(/Fleet_FreshSamples: phase samples older than 60\.0 s: relay-a-x1 .* 12\d\.\d s/);
      // In Prometheus: a new series (the old one is no longer exposed and goes stale) whose sample
      // carries a fixed time; once that time is more than --max-age behind, the gate refuses.
      const t0 = Date.now();
      pods[0]!.body = `buzz_fencing_phase{pod="relay-a-x1",phase="A",build="2"} 1 ${t0}\n`;
      await waitUntil(
        'the timed sample in Prometheus, 1.5 s old',
        async () => {
          const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent('timestamp(buzz_fencing_phase{pod="relay-a-x1"})')}`);
          const result = ((await res.json()) as { data: { result: { value: [number, string] }[] } }).data.result;
          return result.length === 1 && Math.round(Number(result[0]!.value[1]) * 1000) === t0 && Date.now() - t0 > 1500;
        },
        20_000,
        100,
      );
      const p = await gate('advance', '--prometheus', prom.url, '--replicasets', file('rs.json'), '--record', record('A'), '--max-age', '1');
      expect(p.code, p.err).toBe(1);
      expect(p.out).toMatch(/Fleet_FreshSamples: phase samples older than 1\.0 s: relay-a-x1 \d+\.\d s/);
    } finally {
      pods[0]!.body = gauge('relay-a-x1', 'A');
    }
  });

  it("refuses when Prometheus' last scrape of a pod failed", async () => {
    const down = await startPod('relay-a-x3', 'A');
    await new Promise((r) => down.server.close(r)); // its port answers nothing now
    prom.setTargets([...pods, down].map((p) => ({ address: p.address, labels: { pod: p.name } })));
    try {
      await waitUntil(
        'the down target seen',
        async () => {
          const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent('up{pod="relay-a-x3"}')}`);
          return ((await res.json()) as { data: { result: { value: [number, string] }[] } }).data.result[0]?.value[1] === '0';
        },
        20_000,
        100,
      );
      const r = await gate('advance', '--prometheus', prom.url, '--replicasets', file('rs.json'), '--record', record('A'));
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/Fleet_EveryPodReports: pods not heard from \(Prometheus .*\): relay-a-x3: last scrape failed/);
    } finally {
      prom.setTargets(pods.map((p) => ({ address: p.address, labels: { pod: p.name } })));
    }
  });

  it('a pod whose /metrics has no gauge is not heard from', async () => {
    pods[1]!.body = '# nothing here\nprocess_start_time_seconds 1\n';
    try {
      const r = await gate('advance', ...metricsArgs(), '--replicasets', file('rs.json'), '--record', record('A'));
      expect(r.code).toBe(1);
      expect(r.out).toMatch(new RegExp(`Fleet_EveryPodReports: pods not heard from \\(metrics\\): http://${pods[1]!.address}/metrics: no buzz_fencing_phase gauge`));
    } finally {
      pods[1]!.body = gauge('relay-a-x2', 'A');
    }
  });

  it('an unreachable source is exit 2 (never allowed); malformed text or JSON is exit 3 naming the source', async () => {
    const rs = ['--replicasets', file('rs.json')];
    const closed = await freeLoopbackPort(); // nothing listens there
    const cases: [string[], number, RegExp][] = [
      [
        ['--metrics', `http://127.0.0.1:${closed}/metrics`, ...rs, '--record', record('A')],
        2,
        new RegExp(`^fencecheck gate: not run: cannot read http://127\\.0\\.0\\.1:${closed}/metrics: .*ECONNREFUSED`),
      ],
      [['--prometheus', `http://127.0.0.1:${closed}`, ...rs, '--record', record('A')], 2, new RegExp(`^fencecheck gate: not run: cannot read http://127\\.0\\.0\\.1:${closed}/api/v1/query`)],
      [[...metricsArgs(), '--replicasets-cmd', 'exit 7', '--record', record('A')], 2, /^fencecheck gate: not run: cannot read command 'exit 7': exit 7/],
      [[...metricsArgs(), ...rs, '--record', file('absent.json')], 2, /^fencecheck gate: not run: cannot read deploy record .*absent\.json: no such file \(create it with --init-record\)/],
      [[...metricsArgs(), '--replicasets-cmd', 'echo "{"', '--record', record('A')], 3, /^fencecheck gate: bad input: command 'echo "\{"': not JSON/],
      [[...metricsArgs(), '--replicasets-url', `${prom.url}/metrics`, '--record', record('A')], 3, /^fencecheck gate: bad input: http:\/\/127\.0\.0\.1:\d+\/metrics: not JSON/],
      [['--metrics', `${prom.url}/graph`, ...rs, '--record', record('A')], 3, /^fencecheck gate: bad input: http:\/\/127\.0\.0\.1:\d+\/graph: not Prometheus exposition text: line \d+/],
    ];
    for (const [args, code, line] of cases) {
      const r = await gate('advance', ...args);
      expect(r.code, `${args.join(' ')}\n${r.err}`).toBe(code);
      expect(r.err.trimEnd().split('\n'), r.err).toHaveLength(1);
      expect(r.err).toMatch(line);
    }
    writeFileSync(file('bad-record.json'), '{"format":"fencecheck.deploy-record/1","target":"D"}');
    const r = await gate('advance', ...metricsArgs(), ...rs, '--record', file('bad-record.json'));
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/^fencecheck gate: bad input: deploy record .*bad-record\.json: target "D" is not a phase/);
  });

  it('--init-record creates the record at O, disabled, and keeps an existing one', async () => {
    const rec = file('new-record.json');
    const a = await fencecheckCli(['gate', '--record', rec, '--init-record']);
    expect(a.code, a.err).toBe(0);
    expect(JSON.parse(readFileSync(rec, 'utf8'))).toMatchObject({ target: 'O', mode: 'disabled', backfilled: false });
    const b = await fencecheckCli(['gate', '--record', record('B', true), '--init-record']);
    expect(b.out).toMatch(/kept as it is/);
    expect(JSON.parse(readFileSync(file('record.json'), 'utf8'))).toMatchObject({ target: 'B', backfilled: true });
  });
});
