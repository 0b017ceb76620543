import { type OwnChild, trackChild, untrackChild } from '../core/owned-children.js';
import { forgetServer, removeNodeDir, type ServerRecord } from './registry.js';

export { killAllOwnedSync, markStopping } from '../core/owned-children.js';

/**
 * The valkey-servers THIS process started, as harness-owned children (src/core/owned-children.ts):
 * killed through their handle when the process ends; a server's record and node folder are dropped
 * only once it is seen gone.
 */
export function trackServer(rec: ServerRecord, child: OwnChild, exited?: Promise<unknown>): void {
  trackChild({
    pid: rec.pid,
    child,
    ...(exited && { exited }),
    afterGone: () => {
      forgetServer(rec.pid);
      removeNodeDir(rec.dir);
    },
  });
}

export const untrackServer = untrackChild;
