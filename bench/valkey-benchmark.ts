/**
 * The server-side ceiling every bench section compares with in the same run: valkey-benchmark's
 * requests/s for one command on one connection with `pipeline` requests in flight (no client work).
 */
import { spawn } from 'node:child_process';
import type { NodeInfo } from '../src/valkey/index.js';

export function valkeyBenchmark(node: Pick<NodeInfo, 'host' | 'port'>, pipeline: number, requests: number, command: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    // Same process group as this process: Ctrl-C stops it too.
    const p = spawn('valkey-benchmark', ['-h', node.host, '-p', String(node.port), '-c', '1', '-P', String(pipeline), '-n', String(requests), '--csv', ...command], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.once('error', (e) => reject(new Error(`valkey-benchmark cannot run: ${e.message} (install valkey-tools)`)));
    p.once('exit', (code) => {
      const rps = Number(/^"[^"]*","([\d.]+)"/m.exec(out)?.[1]);
      if (code === 0 && rps > 0) resolve(rps);
      else reject(new Error(`valkey-benchmark exited ${code}: ${out.trim().slice(0, 200)}`));
    });
  });
}
