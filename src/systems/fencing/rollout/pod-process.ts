/**
 * One pod of the rehearsal as the controller sees it: pod.ts started as a recorded, marked child on
 * a free loopback port, ready once it says so, its stdout read as typed events (the leases it is
 * issued, renews, releases and hands over).
 */
import { join } from 'node:path';
import { projectRoot } from '../../../core/project-root.js';
import { spawnRecorded, type RecordedChild } from '../../../fleet/recorded-child.js';
import { freeLoopbackPort } from '../../../valkey/ports.js';
import type { Phase } from '../state.js';
import type { PodStepLine } from './trace-recorder.js';

/** A pod process could not start (its runtime is missing or broken): the rehearsal could not run (exit 2). */
export class PodStartError extends Error {
  override readonly name = 'PodStartError';
}

export interface PodSpec {
  readonly name: string;
  readonly phase: Phase;
  /** host:port of the Valkey node. */
  readonly valkey: string;
  readonly sessions: number;
  readonly ttlMs: number;
  readonly renewMs: number;
  readonly seed: number;
  /** An impl patch file whose Lua the pod runs (a broken script, to see the checks and TLC catch it). */
  readonly patch?: string;
  /** `valkey` is a cluster node (after the mode door). */
  readonly cluster?: boolean;
}

export interface RunningPod {
  readonly name: string;
  /** The phase its scripts run (its ReplicaSet's, unless it came up on a stale image). */
  readonly phase: Phase;
  readonly proc: RecordedChild;
  /** host:port of its /metrics (and its control endpoints). */
  readonly address: string;
}

/** One line a pod prints (pod.ts `emit`): `session` is `<community>:<session>`. */
export type PodLine =
  | { readonly ev: 'ready' }
  | { readonly ev: 'issued' | 'released'; readonly lane: string; readonly owner: string; readonly session: string; readonly gen: number }
  | { readonly ev: 'renewed'; readonly lane: string; readonly owner: string; readonly session: string; readonly gen: number; readonly migrated: boolean }
  | { readonly ev: 'lost'; readonly lane: string; readonly owner: string; readonly session: string; readonly gen: number; readonly reply: string }
  | { readonly ev: 'handoff'; readonly lane: string; readonly owner: string; readonly session: string; readonly gen: number }
  | { readonly ev: 'error'; readonly lane?: string; readonly message: string }
  | PodStepLine
  | { readonly ev: 't3'; readonly what: string };

// The pod's TypeScript source, from the checkout (not beside this module: the CLI may run a compiled copy of it from .build/).
const POD_MAIN = join(projectRoot, 'src/systems/fencing/rollout/pod.ts');
const TSX = import.meta.resolve('tsx');

/** Starts the pod and resolves once it serves; `onLine` gets every later line it prints (with its name and the phase it runs). */
export async function startPodProcess(spec: PodSpec, onLine: (pod: string, line: PodLine, phase: Phase) => void): Promise<RunningPod> {
  const port = await freeLoopbackPort();
  const args = [
    '--import',
    TSX,
    POD_MAIN,
    '--valkey',
    spec.valkey,
    '--phase',
    spec.phase,
    '--name',
    spec.name,
    '--sessions',
    String(spec.sessions),
    '--ttl',
    String(spec.ttlMs),
    '--renew',
    String(spec.renewMs),
    '--seed',
    String(spec.seed),
    ...(spec.patch !== undefined ? ['--patch', spec.patch] : []),
    ...(spec.cluster ? ['--cluster'] : []),
  ];
  const proc = spawnRecorded(process.execPath, args, port);
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    proc.child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const text = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let line: PodLine;
        try {
          line = JSON.parse(text) as PodLine;
        } catch {
          continue;
        }
        if (line.ev === 'ready') resolve();
        else onLine(spec.name, line, spec.phase);
      }
    });
    void proc.exited.then((code) => reject(new PodStartError(`pod ${spec.name} exited (${code}) before it was ready: ${proc.logTail().trim().split('\n').at(-1) ?? ''}`)));
  });
  return { name: spec.name, phase: spec.phase, proc, address: `127.0.0.1:${port}` };
}

/** POSTs to one of a pod's control endpoints; a pod gone meanwhile is no error (it was stopping). */
export function tellPod(pod: RunningPod, path: string, body = ''): Promise<void> {
  return fetch(`http://${pod.address}${path}`, { method: 'POST', body }).then(
    (r) => void r.arrayBuffer(),
    () => {},
  );
}
