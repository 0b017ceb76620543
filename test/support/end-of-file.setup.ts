import { afterAll } from 'vitest';
import { removeOwnedTempDirs } from '../../src/core/temp-dir.js';
import { killAllOwnedSync } from '../../src/valkey/hygiene.js';

/**
 * vitest setup file: at the end of every test file (after its own afterAll hooks), the temporary
 * folders it made and the servers it did not stop are removed and killed here, in the worker, while
 * it still runs. The process end hooks would do it too, but vitest ends a worker with SIGTERM and
 * SIGKILLs it 500 ms later: on a loaded machine the handler may not get to run in time.
 */
afterAll(async () => {
  removeOwnedTempDirs();
  const exits = killAllOwnedSync();
  if (exits.length > 0) await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 5_000))]);
});
