import { freeLoopbackPort } from './ports.js';
import { ValkeyUnavailableError } from './errors.js';
import { valkeyArgs, type LaunchedNode, type NodeLauncher } from './node-args.js';

/** The image the containers run; FENCECHECK_VALKEY_IMAGE overrides it. */
export function valkeyImage(): string {
  return process.env.FENCECHECK_VALKEY_IMAGE ?? 'valkey/valkey:8.0.1';
}

/**
 * Resolves when a Docker (or compatible) engine answers; rejects with ValkeyUnavailableError and the
 * reason otherwise. testcontainers@11 fails in about a second without an engine.
 */
export async function dockerAvailable(): Promise<void> {
  let mod: typeof import('testcontainers');
  try {
    mod = await import('testcontainers');
  } catch (err) {
    throw new ValkeyUnavailableError(`testcontainers cannot load: ${(err as Error).message}`, { cause: err });
  }
  try {
    await mod.getContainerRuntimeClient();
  } catch (err) {
    throw new ValkeyUnavailableError(`testcontainers: no container engine answers (${(err as Error).message}); start Docker or use provider 'native'`, { cause: err });
  }
}

/**
 * Runs each node in a container on the host network with the same arguments as a native node, so
 * cluster nodes announce 127.0.0.1 and clients route to them exactly as to native nodes.
 * Host networking needs a Linux Docker engine. Not exercised on machines without Docker.
 */
export const testcontainersLauncher: NodeLauncher = {
  provider: 'testcontainers',
  async launch(cluster, nodeTimeoutMs, tls) {
    if (tls) throw new ValkeyUnavailableError('a TLS topology needs the native provider (its certificate files live in each node folder)');
    await dockerAvailable();
    const { GenericContainer, Wait } = await import('testcontainers');
    const port = await freeLoopbackPort();
    const busPort = cluster ? await freeLoopbackPort() : undefined;
    const args = valkeyArgs({ port, busPort, cluster, nodeTimeoutMs, dir: '/data' });
    const container = await new GenericContainer(valkeyImage())
      .withNetworkMode('host')
      .withCommand(['valkey-server', ...args])
      .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
      .withStartupTimeout(60_000)
      .start();
    let stopped = false;
    return {
      host: '127.0.0.1',
      port,
      ...(busPort !== undefined ? { busPort } : {}),
      async stop() {
        if (stopped) return;
        stopped = true;
        await container.stop({ timeout: 2000 });
      },
      logTail: () => `see: docker logs ${container.getId()}`,
    } satisfies LaunchedNode;
  },
};
