import { ValkeyUnavailableError } from './errors.js';
import { externalConfigured, startExternal } from './external.js';
import { nativeLauncher } from './native.js';
import { startOwned } from './owned.js';
import { dockerAvailable, testcontainersLauncher } from './testcontainers.js';
import type { Topology, TopologySpec } from './types.js';
import { envChoice, envFlag, envValue } from '../core/env.js';

export type ProviderChoice = 'auto' | 'native' | 'testcontainers' | 'external';

export interface StartOptions {
  /** Default: FENCECHECK_VALKEY_PROVIDER, else 'auto' (external env → Docker → native). */
  readonly provider?: ProviderChoice;
  /** cluster-node-timeout in ms for nodes the harness starts (default 2000). */
  readonly nodeTimeoutMs?: number;
  /** Where 'auto' says that it fell back to native and why (default: stderr, once per process, and only when fallbackAudible()). */
  readonly log?: (line: string) => void;
}

const PROVIDERS: readonly ProviderChoice[] = ['auto', 'native', 'testcontainers', 'external'];

let saidFallback = false;

/**
 * The fallback to native is the normal case on a machine without Docker, so stderr hears of it only
 * when 'auto' was asked for explicitly (FENCECHECK_VALKEY_PROVIDER=auto) or FENCECHECK_VERBOSE=1.
 */
export function fallbackAudible(env: NodeJS.ProcessEnv = process.env): boolean {
  return envValue('FENCECHECK_VALKEY_PROVIDER', env) === 'auto' || envFlag('FENCECHECK_VERBOSE', env);
}

/** Cached across this process and its children (vitest forks inherit the env): the probe costs ≈1 s. */
const DOCKER_PROBE_ENV = 'FENCECHECK_DOCKER_PROBE';

/** Probes the container engine once per process tree; null when one answers, else why not. */
export async function dockerReason(): Promise<string | null> {
  const cached = process.env[DOCKER_PROBE_ENV];
  if (cached !== undefined) {
    // A parent process probed (and already said so): stay quiet.
    saidFallback = true;
    return cached === 'ok' ? null : cached;
  }
  try {
    await dockerAvailable();
    process.env[DOCKER_PROBE_ENV] = 'ok';
    return null;
  } catch (err) {
    const why = (err as Error).message;
    process.env[DOCKER_PROBE_ENV] = why;
    return why;
  }
}

export function isProviderChoice(s: string): s is ProviderChoice {
  return (PROVIDERS as readonly string[]).includes(s);
}

export function defaultProvider(): ProviderChoice {
  return envChoice<ProviderChoice>('FENCECHECK_VALKEY_PROVIDER', 'auto');
}

/**
 * Hands out a running, healthy topology. Throws ValkeyUnavailableError when the chosen provider
 * cannot give one (callers report not-run, exit 2).
 */
export async function startTopology(spec: TopologySpec, opts: StartOptions = {}): Promise<Topology> {
  const provider = opts.provider ?? defaultProvider();
  const owned = { ...(opts.nodeTimeoutMs !== undefined ? { nodeTimeoutMs: opts.nodeTimeoutMs } : {}) };
  switch (provider) {
    case 'native':
      return startOwned(spec, nativeLauncher, owned);
    case 'testcontainers':
      await dockerAvailable();
      return startOwned(spec, testcontainersLauncher, owned);
    case 'external':
      return startExternal(spec);
    case 'auto': {
      if (externalConfigured(spec)) return startExternal(spec);
      const why = await dockerReason();
      if (why === null) return startOwned(spec, testcontainersLauncher, owned);
      const line = `fencecheck: provider auto: ${why}; using native valkey-server`;
      if (opts.log) opts.log(line);
      else if (!saidFallback && fallbackAudible()) process.stderr.write(`${line}\n`);
      saidFallback = true;
      return startOwned(spec, nativeLauncher, owned);
    }
    default:
      throw new ValkeyUnavailableError(`unknown provider '${String(provider)}'`);
  }
}
