import { listRecords, reapOrphans, isAlive } from '../../src/valkey/registry.js';
import { defaultProvider, dockerReason } from '../../src/valkey/start.js';

/**
 * vitest globalSetup: reaps valkey-servers left by earlier runs whose owner died (SIGKILL, OOM), and
 * after the whole suite reaps those of any test worker that died without its exit hook running.
 */
export async function setup(): Promise<void> {
  // Probe for a container engine once; the test workers inherit the answer (and the message).
  if (defaultProvider() === 'auto') {
    const docker = await dockerReason();
    if (docker !== null) process.stderr.write(`fencecheck: provider auto: ${docker}; using native valkey-server\n`);
  }
  const killed = reapOrphans();
  if (killed.length > 0) process.stderr.write(`fencecheck: reaped ${killed.length} valkey-server(s) left by a dead process: ${killed.join(', ')}\n`);
}

export function teardown(): void {
  const killed = reapOrphans();
  if (killed.length > 0) process.stderr.write(`fencecheck: after the suite, reaped ${killed.length} valkey-server(s) whose test worker died: ${killed.join(', ')}\n`);
  const mine = listRecords().filter((r) => r.ownerPid === process.pid && isAlive(r.pid));
  if (mine.length > 0) process.stderr.write(`fencecheck: ${mine.length} valkey-server(s) still owned by the vitest main process\n`);
}
