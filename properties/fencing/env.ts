/**
 * The real Valkey a property run needs: a standalone node (mode disabled) and, for door runs, a
 * three-primary cluster the door module shapes into one shard (compatible) and reshards (enabled).
 * Everything started here is stopped by close(), also when a start fails halfway (on an external
 * endpoint, stop() removes the keys under the run's prefix). The door needs a cluster the harness
 * owns; on any other it is "not run: needs an owned topology".
 */
import { startTopology, type Topology } from '../../src/valkey/index.js';
import { createDoor, type DoorBackend } from '../../src/systems/fencing/door.js';
import { loadFencingScripts } from '../../src/systems/fencing/scripts.js';
import type { ImplPatch } from '../../src/systems/fencing/patch.js';
import { DEFAULT_BOUNDS, type FencingBounds } from '../../src/systems/fencing/state.js';
import type { RunContext } from './run.js';

export type PropsTopology = 'standalone' | 'door';

export interface PropsEnv {
  readonly ctx: Omit<RunContext, 'checks'>;
  close(): Promise<void>;
}

export async function openPropsEnv(kind: PropsTopology, opts: { patch?: ImplPatch; bounds?: FencingBounds } = {}): Promise<PropsEnv> {
  // Load (and statically check) the scripts first: a bad patch fails before any process starts.
  const scripts = loadFencingScripts(opts.patch);
  const started: Topology[] = [];
  let door: DoorBackend | undefined;
  const close = async () => {
    await door?.close();
    await Promise.all(started.map((t) => t.stop()));
  };
  try {
    if (kind === 'door') {
      // The cluster first: the door refuses one the harness does not own (NotOwnedError, exit 2)
      // before it sends a command, and then the standalone endpoint is not touched at all.
      const cluster = await startTopology({ kind: 'cluster', shards: 3 });
      started.push(cluster);
      door = await createDoor(cluster);
    }
    const standalone = await startTopology({ kind: 'standalone' });
    started.push(standalone);
    const ctx: Omit<RunContext, 'checks'> = {
      topology: standalone,
      scripts,
      bounds: opts.bounds ?? DEFAULT_BOUNDS,
      ...(opts.patch ? { patch: opts.patch } : {}),
      ...(door ? { door } : {}),
    };
    return { ctx, close };
  } catch (err) {
    await close();
    throw err;
  }
}
