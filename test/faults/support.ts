/**
 * Plumbing for the fault tests: a real `fencecheck` process whose stderr is watched line by line
 * (so a fault can be injected after its first progress output) under a hard timeout, and a
 * standalone valkey-server of the test's own (stopped by PID).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-root.js';
import { startTopology, type Topology } from '../../src/valkey/index.js';

const BIN = resolve(projectRoot, 'bin/fencecheck.mjs');

export interface LiveRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time from spawn to exit. */
  readonly ms: number;
  /** Killed by the hard timeout. */
  readonly timedOut: boolean;
}

export interface LiveOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Hard limit: the process group is SIGKILLed after this many ms. */
  readonly timeoutMs: number;
  /** Called once for the first stderr line that matches `when`. */
  readonly onLine?: { readonly when: RegExp; readonly then: () => unknown };
}

/** Runs `node bin/fencecheck.mjs ...args`; resolves when it exits or is killed at the hard timeout. */
export function runLive(args: readonly string[], opts: LiveOptions): Promise<LiveRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: projectRoot,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let fired = false;
  let timedOut = false;
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
    if (!fired && opts.onLine && opts.onLine.when.test(stderr)) {
      fired = true;
      void opts.onLine.then();
    }
  });
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, opts.timeoutMs);
  return new Promise((done) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // Let the pipes drain.
      setTimeout(() => done({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut }), 50);
    });
  });
}

/** A standalone node of the test's own; FENCECHECK_VALKEY_URL points a command at it. */
export async function ownStandalone(): Promise<{ topo: Topology; url: string; pid: number }> {
  const topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
  const n = topo.nodes[0]!;
  return { topo, url: `${n.host}:${n.port}`, pid: n.pid! };
}

/** The environment that points a command at one external standalone endpoint and nothing else. */
export function pointAt(url: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { FENCECHECK_VALKEY_URL: url, FENCECHECK_VALKEY_CLUSTER: '', FENCECHECK_VALKEY_PROVIDER: '', ...extra };
}

/** What a fault run must never print: a counterexample's replay data or a saved trace. */
export const COUNTEREXAMPLE = /replay|--path|path=|seed=|shrunk commands|counterexample:|trace: reports\/traces/;

/**
 * A loopback TCP relay in front of a node that can go silent: after `stall()` it keeps every
 * connection open (and accepts new ones) but passes no byte in either direction — a server that
 * stopped answering, without a close or a reset.
 */
export async function stallableRelay(target: { host: string; port: number }): Promise<{ port: number; stall(): void; stop(): Promise<void> }> {
  const { createServer, connect } = await import('node:net');
  let stalled = false;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (b) => void (stalled || upstream.write(b)));
    upstream.on('data', (b) => void (stalled || client.write(b)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    stall: () => void (stalled = true),
    stop: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => server.close(r));
    },
  };
}
