/** What every handler of one server shares (built once by server.ts). */
import type { IncomingMessage } from 'node:http';
import type { ClientViews } from './client-views.js';
import type { Clock } from './clock.js';
import { DeliveryWriter, type DeadlineLimits } from './delivery-writer.js';
import type { InitLimiter, Surface } from './limiter.js';
import type { Metrics } from './metrics.js';
import type { InitLimiterParts } from './parts.js';
import type { Log, ResponseWriter } from './response.js';
import { isClientId, type HoldPoint, type Seams } from './seams.js';
import type { SingleFlight } from './single-flight.js';
import type { SocketDeadlines } from './socket-deadline.js';
import type { Snapshot, VersionedStore } from './store.js';
import type { ResidentBases, SerializedBasis } from './wire.js';

export interface ServerEnv {
  readonly store: VersionedStore;
  /** null: the limiter is disabled (not configured, or maxConcurrent 0): base behaviour. */
  readonly limiter: InitLimiter | null;
  readonly limits: DeadlineLimits;
  readonly metrics: Metrics;
  readonly clock: Clock;
  readonly seams: Seams;
  readonly parts: InitLimiterParts;
  readonly log: Log;
  readonly deadlines: SocketDeadlines;
  readonly peekFlight: SingleFlight<Snapshot>;
  readonly serializeFlight: SingleFlight<SerializedBasis>;
  readonly resident: ResidentBases;
  readonly heartbeatMs: number;
  /** Seconds for the next 503's Retry-After (jittered). */
  readonly retryAfter: () => number;
  /** Streams open now, and those in their live phase. */
  readonly streams: { open: number; live: number };
  /** Delivery writes waiting for the kernel now. */
  readonly pendingWrites: { count: number };
  /** The per-client read-out (test seams only; null in production). */
  readonly views: ClientViews | null;
}

/** An arrival of `client` at a hold point: a promise only when the point parks it (await it either way). */
export function pass(env: ServerEnv, point: HoldPoint, client: string | null = null, gone?: Promise<unknown>): Promise<void> | undefined {
  return env.seams.at(point, client, gone);
}

/** The client a request names (x-client-id), for per-client hold points; null when absent or malformed. */
export function clientOf(req: IncomingMessage): string | null {
  const v = req.headers['x-client-id'];
  return isClientId(v) ? v : null;
}

/** The delivery writer over `w` for `surface`, with this server's limits, clock and parts. */
export function deliveryWriter(env: ServerEnv, w: ResponseWriter, surface: Surface): DeliveryWriter {
  return new DeliveryWriter(w, {
    clock: env.clock,
    limits: env.limits,
    surface,
    budget: env.parts.Deadline_ThroughputFloor,
    endOfDelivery: env.parts.Deadline_ScopedToDelivery,
    onDeliveryComplete: () => env.metrics.count('deliveries_completed_total', surface),
    pending: env.pendingWrites,
  });
}
