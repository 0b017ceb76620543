// The foundation's public API for Valkey topologies and connections (pinned in the working agreement).
export type { TopologySpec, NodeInfo, Topology, ValkeyClient, ClientTarget, ProviderName, Credentials } from './types.js';
export type { TlsSettings } from './tls.js';
export { describeSpec } from './types.js';
export { startTopology, isProviderChoice, type StartOptions, type ProviderChoice } from './start.js';
export { createClient, nodeClient, closeClient, standaloneClientOptions, clusterClientOptions, type ClientExtras } from './client.js';
export { OutcomeUnknownError, ValkeyUnavailableError, UnsafeOperationError, NotOwnedError, CommandTimeoutError } from './errors.js';
export { maskSecrets } from '../core/secrets.js';
export { reapOrphans } from './registry.js';
export { DEFAULT_NODE_TIMEOUT_MS } from './owned.js';
export { waitReplicasInSync } from './replication.js';
export { valkeyUnavailableReason } from './availability.js';
