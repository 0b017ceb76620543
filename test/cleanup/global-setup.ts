import { listRecords, reapOrphans, isAlive } from '../../src/valkey/registry.js';

/**
 * vitest globalSetup: reaps valkey-servers left by earlier runs whose owner died (SIGKILL, OOM), and
 * after the whole suite reaps those of any test worker that died without its exit hook running.
 */
export function setup(): void {
  const killed = reapOrphans();
  if (killed.length > 0) process.stderr.write(`fencecheck: reaped ${killed.length} valkey-server(s) left by a dead process: ${killed.join(', ')}\n`);
}

export function teardown(): void {
  const killed = reapOrphans();
  if (killed.length > 0) process.stderr.write(`fencecheck: after the suite, reaped ${killed.length} valkey-server(s) whose test worker died: ${killed.join(', ')}\n`);
  const mine = listRecords().filter((r) => r.ownerPid === process.pid && isAlive(r.pid));
  if (mine.length > 0) process.stderr.write(`fencecheck: ${mine.length} valkey-server(s) still owned by the vitest main process\n`);
}
