/**
 * A long-lived child process of the harness that serves on a loopback port (a rehearsal's pod):
 * spawned in its own folder inside `<root>/nodes/`, recorded in the process registry with its
 * program's name and port, killed by PID on exit and on Ctrl-C by the same end hooks as a
 * valkey-server, reaped by the next run when its owner died, its folder removed when it stops.
 * The port is the child's `--port` argument (the registry's check that the PID is still ours).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { trackServer, untrackServer } from '../valkey/hygiene.js';
import { markedEnv } from '../core/owner-mark.js';
import { forgetServer, harnessTempRoot, makeNodeDir, processStart, recordServer, removeNodeDir, type ServerRecord } from '../valkey/registry.js';
import { TIMED_OUT, withTimeout } from '../valkey/wait.js';

export interface RecordedChild {
  readonly pid: number;
  readonly port: number;
  readonly dir: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** SIGTERM (a graceful stop, as Kubernetes sends), SIGKILL after `graceMs`; record and folder gone. */
  stop(graceMs?: number): Promise<void>;
  /** `kill -9` now (chaos); record and folder gone once it exited. */
  kill9(): Promise<void>;
  logTail(): string;
}

export function spawnRecorded(exe: string, args: readonly string[], port: number, env: NodeJS.ProcessEnv = process.env): RecordedChild {
  const dir = makeNodeDir(port);
  const logPath = join(dir, 'child.log');
  const fd = openSync(logPath, 'a');
  // The harness's mark (src/core/owner-mark.ts) in its environment: a reaper finds it even if we die before it is recorded.
  const child = spawn(exe, [...args, '--port', String(port)], { cwd: dir, env: markedEnv(harnessTempRoot(), env), stdio: ['ignore', 'pipe', fd], detached: false });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid;
  if (pid === undefined) {
    removeNodeDir(dir);
    throw new Error(`cannot run ${exe}`);
  }
  const ownerStart = processStart(process.pid);
  const rec: ServerRecord = { pid, ownerPid: process.pid, ...(ownerStart !== undefined ? { ownerStart } : {}), port, dir, startedAt: new Date().toISOString(), program: basename(exe) };
  recordServer(rec);
  trackServer(rec, child, exited);
  child.unref();
  let done = false;
  const forget = () => {
    untrackServer(pid);
    forgetServer(pid);
    removeNodeDir(dir);
  };
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    pid,
    port,
    dir,
    child,
    exited,
    async stop(graceMs = 3000) {
      if (done) return;
      done = true;
      if (running()) {
        child.kill('SIGTERM');
        if ((await withTimeout(exited, graceMs)) === TIMED_OUT) {
          child.kill('SIGKILL');
          await withTimeout(exited, 2000);
        }
      }
      forget();
    },
    async kill9() {
      if (done) return;
      done = true;
      if (running()) child.kill('SIGKILL');
      await withTimeout(exited, 2000);
      forget();
    },
    logTail() {
      try {
        return readFileSync(logPath, 'utf8').split('\n').slice(-20).join('\n');
      } catch {
        return '';
      }
    },
  };
}
