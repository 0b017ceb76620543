import { ValkeyUnavailableError } from './errors.js';
import { startTopology } from './start.js';

/**
 * Why no Valkey can be started here (the ValkeyUnavailableError message), or null when a
 * standalone node starts (it is stopped again at once). For "not run" reasons; other errors throw.
 */
export async function valkeyUnavailableReason(): Promise<string | null> {
  try {
    const t = await startTopology({ kind: 'standalone' });
    await t.stop();
    return null;
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) return err.message;
    throw err;
  }
}
