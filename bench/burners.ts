import { spawn, type ChildProcess } from 'node:child_process';
import { onProcessEnd } from '../src/core/process-end.js';

/**
 * CPU burners: busy shell loops, one per core to load, for the sections that measure under load
 * ("two CPU burners"). Started and stopped by this process, by PID; also killed when the
 * process ends otherwise (an error, Ctrl-C), so none outlives the benchmark.
 */
export interface Burners {
  readonly pids: readonly number[];
  stop(): Promise<void>;
}

export function startBurners(count = 2): Burners {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) children.push(spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  const kill = () => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null && c.pid !== undefined) {
        try {
          process.kill(c.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
  };
  const unhook = onProcessEnd({ when: 'any-signal', release: kill });
  return {
    pids: children.map((c) => c.pid!).filter((p) => p !== undefined),
    async stop() {
      const exits = children.map((c) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r()))));
      kill();
      unhook();
      await Promise.all(exits);
    },
  };
}
