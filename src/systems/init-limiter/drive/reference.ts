/**
 * A check against a fresh reference server of the configuration the check assumes (test seams on),
 * patched or not — how the tests, the command line and an impl mutant layer run the checks. The
 * server is always stopped, also when the check throws.
 */
import { startInitLimiterServer, type InitLimiterPatch } from '../server/index.js';
import { runCheck, type Check, type CheckOutcome } from './checks.js';
import { ControlClient } from './control-client.js';

export async function checkOnReferenceServer(check: Check, patch?: InitLimiterPatch): Promise<CheckOutcome> {
  const s = await startInitLimiterServer({ ...check.server, testSeams: true, ...(patch ? { patch } : {}) });
  try {
    return await runCheck(check, s.url, new ControlClient(s.url));
  } finally {
    await s.stop();
  }
}
