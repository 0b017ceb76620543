import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { valkeyBinary } from './binary.js';
import { ValkeyUnavailableError } from './errors.js';
import { trackServer, untrackServer } from './hygiene.js';
import { freeLoopbackPort } from './ports.js';
import { forgetServer, harnessTempRoot, makeNodeDir, processStart, recordServer, removeNodeDir, type ServerRecord } from './registry.js';
import { markedEnv } from '../core/owner-mark.js';
import { delay, TIMED_OUT, withTimeout } from './wait.js';
import { disconnectNow } from './client.js';
import { valkeyArgs, type LaunchedNode, type NodeLauncher } from './node-args.js';
import { tlsStartFailure, writeServerTlsFiles, type TlsMaterial } from './tls-material.js';

const START_TIMEOUT_MS = 15_000;
const PORT_ATTEMPTS = 4;

/** Spawns valkey-server processes on free loopback ports, each recorded in the process registry. */
export const nativeLauncher: NodeLauncher = {
  provider: 'native',
  async launch(cluster, nodeTimeoutMs, tls) {
    const bin = valkeyBinary();
    let lastLog = '';
    for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
      const port = await freeLoopbackPort();
      const busPort = cluster ? await freeLoopbackPort() : undefined;
      const tlsPort = tls ? await freeLoopbackPort() : undefined;
      const ports = [port, busPort, tlsPort].filter((p) => p !== undefined);
      if (new Set(ports).size < ports.length) continue;
      const result = await spawnNode(bin.path, { port, busPort, cluster, nodeTimeoutMs, ...(tls && tlsPort !== undefined && { tls: { material: tls, port: tlsPort } }) });
      if (result.ok) return result.node;
      lastLog = result.log;
      // Another process took the port between our probe and the server's bind: try new ports.
      if (!/Address already in use|bind: /i.test(result.log)) break;
    }
    // A server that cannot serve TLS says so in one line.
    const tlsWhy = tls ? tlsStartFailure(lastLog) : undefined;
    if (tlsWhy !== undefined) throw new ValkeyUnavailableError(tlsWhy);
    throw new ValkeyUnavailableError(`valkey-server did not start:\n${lastLog.trim().split('\n').slice(-8).join('\n')}`);
  },
};

type SpawnResult = { ok: true; node: LaunchedNode } | { ok: false; log: string };

interface SpawnSpec {
  readonly port: number;
  readonly busPort: number | undefined;
  readonly cluster: boolean;
  readonly nodeTimeoutMs: number;
  readonly tls?: { readonly material: TlsMaterial; readonly port: number };
}

async function spawnNode(bin: string, spec: SpawnSpec): Promise<SpawnResult> {
  const { port, busPort, cluster, nodeTimeoutMs } = spec;
  // Inside the harness's private root (<root>/nodes/), the only place the reaper ever removes.
  const dir = makeNodeDir(port);
  const logPath = join(dir, 'valkey.log');
  const fd = openSync(logPath, 'a');
  // The node's own copy of the certificate files, removed with its data dir.
  const tls = spec.tls ? { port: spec.tls.port, ...writeServerTlsFiles(spec.tls.material, dir) } : undefined;
  // No process title: valkey-server writes its title over its environment, the harness's mark with it.
  const args = [...valkeyArgs({ port, busPort, cluster, nodeTimeoutMs, dir, ...(tls && { tls }) }), '--set-proc-title', 'no'];
  // Same process group as us: a terminal Ctrl-C reaches the servers too. stdout goes to a file, not
  // a pipe, so the server never blocks on (or dies with) our event loop.
  // The harness's mark in its environment (src/core/owner-mark.ts): from its first instruction it
  // says whose it is, so a reaper finds it even if we die before it is recorded.
  const child = spawn(bin, args, { stdio: ['ignore', fd, fd], detached: false, env: markedEnv(harnessTempRoot()) });
  closeSync(fd);
  const logTail = () => {
    try {
      return readFileSync(logPath, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '';
    }
  };
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid;
  if (pid === undefined) {
    const err = await spawnError;
    removeNodeDir(dir);
    throw new ValkeyUnavailableError(`cannot run ${bin}: ${err.message}`, { cause: err });
  }
  const ownerStart = processStart(process.pid);
  const rec: ServerRecord = { pid, ownerPid: process.pid, ...(ownerStart !== undefined ? { ownerStart } : {}), port, dir, startedAt: new Date().toISOString() };
  // Recorded in the same turn as the spawn: no signal handler can run in between.
  recordServer(rec);
  trackServer(rec, child, exited);
  // Seen gone: only now may its record go (a record dropped earlier names nothing a reaper can find).
  void exited.then(() => forgetServer(pid));
  child.unref(); // a forgotten stop() must not keep the process alive; the exit hook kills it

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const done = (await withTimeout(exited, 3000)) !== TIMED_OUT;
      if (!done) {
        child.kill('SIGKILL');
        await withTimeout(exited, 2000);
      }
    }
    untrackServer(pid);
    // Not seen gone: the record stays (the exit forgets it; if we die first, the next reaper does).
    if (child.exitCode === null && child.signalCode === null) return;
    forgetServer(pid);
    removeNodeDir(dir);
  };

  const ready = await waitForPing(port, exited);
  if (ready === false) {
    const log = logTail();
    await stop();
    return { ok: false, log };
  }
  if (ready.runId !== undefined && !stopped) {
    // The run id tells this server from any other later found on the same port (isHarnessServer).
    const withRunId: ServerRecord = { ...rec, runId: ready.runId };
    if (child.exitCode === null && child.signalCode === null) {
      recordServer(withRunId);
      trackServer(withRunId, child, exited);
    }
  }
  return { ok: true, node: { host: '127.0.0.1', port, ...(busPort !== undefined ? { busPort } : {}), ...(tls && { tlsPort: tls.port }), pid, stop, logTail } };
}

/**
 * Polls PING until the server answers, then reads its `INFO server` run_id; false when it exited or
 * did not answer in time.
 */
async function waitForPing(port: number, exited: Promise<unknown>): Promise<{ runId?: string } | false> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!gone && Date.now() < deadline) {
    const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1000 });
    probe.on('error', () => {});
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') {
        const runId = /^run_id:([0-9a-f]+)\s*$/m.exec(await probe.info('server'))?.[1];
        return runId !== undefined ? { runId } : {};
      }
    } catch {
      /* not listening yet */
    } finally {
      disconnectNow(probe);
    }
    await delay(20);
  }
  return false;
}
