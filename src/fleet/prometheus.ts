/**
 * A real Prometheus server the harness starts on a free loopback port, like a native valkey-server:
 * its own folder inside the harness's `<root>/nodes/` (config, file-discovered targets, TSDB), a
 * record in the process registry (so a dead owner's server is reaped by the next run), killed by
 * PID on exit and on Ctrl-C through the same end hooks, and its folder removed when it stops.
 * It scrapes the targets it is given (host:port of /metrics endpoints), rewritable while it runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trackServer, untrackServer } from '../valkey/hygiene.js';
import { freeLoopbackPort } from '../valkey/ports.js';
import { markedEnv } from '../core/owner-mark.js';
import { forgetServer, harnessTempRoot, makeNodeDir, processStart, recordServer, removeNodeDir, type ServerRecord } from '../valkey/registry.js';
import { delay, TIMED_OUT, withTimeout } from '../valkey/wait.js';

/** Prometheus is missing or could not start: callers report not-run (exit 2). */
export class PrometheusUnavailableError extends Error {
  override readonly name = 'PrometheusUnavailableError';
}

export interface PrometheusServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** The scrape targets, written atomically to the file Prometheus watches. */
  setTargets(targets: readonly ScrapeTarget[]): void;
  /** Kills the server (SIGTERM, then SIGKILL) and removes its folder. Idempotent. */
  stop(): Promise<void>;
  logTail(): string;
}

/** host:port of a /metrics endpoint, or that with target labels (the `pod` label of a Kubernetes pod). */
export type ScrapeTarget = string | { readonly address: string; readonly labels: Readonly<Record<string, string>> };

export interface PrometheusOptions {
  /** Scrape and evaluation interval (Prometheus takes whole milliseconds ≥ 1 ms; the rehearsal scales it). */
  readonly scrapeIntervalMs: number;
  readonly targets: readonly ScrapeTarget[];
  /** The job label of the scraped series. */
  readonly job?: string;
  /** Listen on this port (a restart on the port its clients know); a free one by default. */
  readonly port?: number;
}

const PROGRAM = 'prometheus';
const START_TIMEOUT_MS = 20_000;
const PORT_ATTEMPTS = 3;

/** The installed prometheus binary's path, or a PrometheusUnavailableError saying how to get it. */
export function prometheusBinary(): string {
  const r = spawnSync(PROGRAM, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new PrometheusUnavailableError("prometheus is not installed: run 'bash scripts/setup' (Debian: apt-get install prometheus)");
  return PROGRAM;
}

function configText(job: string, intervalMs: number, targetsFile: string): string {
  const every = `${Math.max(1, Math.round(intervalMs))}ms`;
  return [
    'global:',
    `  scrape_interval: ${every}`,
    `  scrape_timeout: ${every}`,
    `  evaluation_interval: ${every}`,
    'scrape_configs:',
    `  - job_name: ${JSON.stringify(job)}`,
    // A pod's own labels (its pod name on the gauge) win over the target's.
    '    honor_labels: true',
    '    file_sd_configs:',
    `      - files: [${JSON.stringify(targetsFile)}]`,
    `        refresh_interval: ${every}`,
    '',
  ].join('\n');
}

function writeTargets(file: string, targets: readonly ScrapeTarget[]): void {
  const tmp = `${file}.tmp`;
  const groups = targets.map((t) => (typeof t === 'string' ? { targets: [t] } : { targets: [t.address], labels: t.labels }));
  writeFileSync(tmp, `${JSON.stringify(groups)}\n`);
  renameSync(tmp, file);
}

export async function startPrometheus(opts: PrometheusOptions): Promise<PrometheusServer> {
  const bin = prometheusBinary();
  let lastLog = '';
  for (let attempt = 1; attempt <= (opts.port === undefined ? PORT_ATTEMPTS : 1); attempt++) {
    const port = opts.port ?? (await freeLoopbackPort());
    const r = await spawnOne(bin, port, opts);
    if (r.ok) return r.server;
    lastLog = r.log;
    if (!/address already in use/i.test(r.log)) break;
  }
  throw new PrometheusUnavailableError(`prometheus did not start:\n${lastLog.trim().split('\n').slice(-6).join('\n')}`);
}

type SpawnResult = { ok: true; server: PrometheusServer } | { ok: false; log: string };

async function spawnOne(bin: string, port: number, opts: PrometheusOptions): Promise<SpawnResult> {
  const dir = makeNodeDir(port);
  const targetsFile = join(dir, 'targets.json');
  writeTargets(targetsFile, opts.targets);
  writeFileSync(join(dir, 'prometheus.yml'), configText(opts.job ?? 'fleet', opts.scrapeIntervalMs, targetsFile));
  const logPath = join(dir, 'prometheus.log');
  const fd = openSync(logPath, 'a');
  // Working in its folder: the registry's checks (and the reaper) know it by its cwd and port.
  const child = spawn(bin, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], {
    cwd: dir,
    stdio: ['ignore', fd, fd],
    detached: false,
    // The harness's mark (src/core/owner-mark.ts): a reaper finds it even if we die before it is recorded.
    env: markedEnv(harnessTempRoot()),
  });
  closeSync(fd);
  const logTail = () => {
    try {
      return readFileSync(logPath, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '';
    }
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid;
  if (pid === undefined) {
    const err = await new Promise<Error>((resolve) => child.once('error', resolve));
    removeNodeDir(dir);
    throw new PrometheusUnavailableError(`cannot run ${bin}: ${err.message}`);
  }
  const ownerStart = processStart(process.pid);
  const rec: ServerRecord = { pid, ownerPid: process.pid, ...(ownerStart !== undefined ? { ownerStart } : {}), port, dir, startedAt: new Date().toISOString(), program: PROGRAM };
  recordServer(rec);
  trackServer(rec, child, exited);
  child.unref();

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if ((await withTimeout(exited, 3000)) === TIMED_OUT) {
        child.kill('SIGKILL');
        await withTimeout(exited, 2000);
      }
    }
    untrackServer(pid);
    forgetServer(pid);
    removeNodeDir(dir);
  };
  const url = `http://127.0.0.1:${port}`;
  if (!(await waitReady(url, exited))) {
    const log = logTail();
    await stop();
    return { ok: false, log };
  }
  return { ok: true, server: { url, port, pid, setTargets: (t) => writeTargets(targetsFile, t), stop, logTail } };
}

/** Polls /-/ready until Prometheus answers 200; false when it exited or did not answer in time. */
async function waitReady(url: string, exited: Promise<unknown>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!gone && Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return true;
    } catch {
      /* not listening yet */
    }
    await delay(50);
  }
  return false;
}
