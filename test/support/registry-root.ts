import { reapOrphans } from '../../src/valkey/registry.js';

/**
 * reapOrphans() on another registry root (a child's private FENCECHECK_REGISTRY_DIR): whatever a red
 * test left behind there is killed, verified and by PID, as the root's own reaper would.
 */
export function reapOrphansIn(root: string): number[] {
  const saved = process.env.FENCECHECK_REGISTRY_DIR;
  process.env.FENCECHECK_REGISTRY_DIR = root;
  try {
    return reapOrphans();
  } finally {
    if (saved === undefined) delete process.env.FENCECHECK_REGISTRY_DIR;
    else process.env.FENCECHECK_REGISTRY_DIR = saved;
  }
}
