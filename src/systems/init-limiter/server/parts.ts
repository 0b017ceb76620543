/**
 * The mutation points: named, typed parts of the server, each one place where the seed's review
 * found a bug. The server runs REAL_PARTS unless a patch (mutants/init-limiter/impl/In.ts
 * default-exports one) replaces some; the spec, the twin and the manifest use the same names.
 * Nothing in the server asks which part is patched: a patch is the real code with one thing changed.
 */
import type { IncomingMessage } from 'node:http';
import { importDefault } from '../../../core/import-default.js';
import type { Batch, OfferOutcome } from './batch.js';
import type { Clock } from './clock.js';
import { SCOPED_TO_DELIVERY, THROUGHPUT_FLOOR, type DeliveryWriter, type EndOfDelivery, type WriteBudget } from './delivery-writer.js';
import type { ReleaseReason, Slot } from './limiter.js';
import { provideInitLimiter, type PollGate } from './gates.js';
import { LoggingWriter, setWriteDeadline, type Log, type ResponseWriter } from './response.js';
import type { DeadlineOwner } from './socket-deadline.js';
import type { Snapshot, StoreReader } from './store.js';
import type { BasisFormat } from './wire.js';

export type HandOutcome = OfferOutcome | 'abandoned';

/** The signal a stream's release waits on (boxed: an async function would await a bare promise). */
export interface DoneSignal {
  /** Resolves at the end-of-basis flush; null: no signal (the release then waits for the close). */
  readonly done: Promise<void> | null;
}

export interface InitLimiterParts {
  /** I1 — gives a stream's slot back: real, once the basis is sent or the connection closed (`sent`). */
  readonly Stream_HoldSlotAcrossSend: (slot: Slot, sent: Promise<ReleaseReason>) => Promise<void>;
  /**
   * I2 — closes the batch and returns the done signal the release waits on. `pause` is the
   * basis.closeBatch hold point (undefined unless armed). Real: the signal is read before the close
   * (the end-of-basis flush the close triggers clears the writer's reference to it).
   */
  readonly Stream_CaptureDoneBeforeClose: (writer: DeliveryWriter, closeBatch: () => void, pause: () => Promise<void> | undefined) => Promise<DoneSignal>;
  /** I3 — the serialize flight's key: real, the format and the store version. */
  readonly Serialize_KeyedByVersion: (format: BasisFormat, version: number) => string;
  /** I4 — the peek flight's key: real, the client's basis. */
  readonly Peek_KeyedByBasis: (basis: number | null) => string;
  /** I5 — the snapshot a full delivery serves: real, the store read after admission. */
  readonly Serialize_ReadsAfterAdmit: (peeked: Snapshot, store: StoreReader) => Snapshot;
  /** I6 — what a gated poll does to its connection's write deadline when the handler returns: real, clears it. */
  readonly Poll_ClearDeadlineOnReturn: (w: ResponseWriter, owner: DeadlineOwner) => void;
  /** I7 — what the end-of-basis flush does to the deadline: real, clears it and leaves delivery mode. */
  readonly Deadline_ScopedToDelivery: EndOfDelivery;
  /** I8 — slicing and per-write deadline: real, bytes / floor + slack per piece, capped from the start. */
  readonly Deadline_ThroughputFloor: WriteBudget;
  /** I9 — hands one event of a basis to the writer: real, waits as long as it takes (no idle timeout). */
  readonly Stream_NoIdleTimeout: (batch: Batch, event: Buffer, clock: Clock) => Promise<HandOutcome>;
  /** I10 — what shedding a stream does to its connection: real, closes it. */
  readonly Shed_ClosesConnection: (conn: { close(): void }) => void;
  /** I11 — the gate of the FDv2 poll routes: real, a slot only on the full-basis branch. */
  readonly UpToDate_NoSlot: PollGate;
  /** I12 — the request logger's writer: real, it unwraps, so a deadline reaches the socket. */
  readonly Deadline_ReachesSocket: (inner: ResponseWriter, log: Log, req: IncomingMessage) => ResponseWriter;
  /**
   * Whether a stream's basis is written under the write deadline, given whether the limiter is
   * enabled: real, only when it is (disabled is the base behaviour: no deadline, a slow client is
   * never cut).
   */
  readonly Deadline_OnlyWhenEnabled: (limiterEnabled: boolean) => boolean;
}

export type PartName = keyof InitLimiterParts;

/** The names in order (the manifest's mutants name the part they replace as their target). */
export const PART_NAMES: readonly PartName[] = [
  'Stream_HoldSlotAcrossSend',
  'Stream_CaptureDoneBeforeClose',
  'Serialize_KeyedByVersion',
  'Peek_KeyedByBasis',
  'Serialize_ReadsAfterAdmit',
  'Poll_ClearDeadlineOnReturn',
  'Deadline_ScopedToDelivery',
  'Deadline_ThroughputFloor',
  'Stream_NoIdleTimeout',
  'Shed_ClosesConnection',
  'UpToDate_NoSlot',
  'Deadline_ReachesSocket',
  'Deadline_OnlyWhenEnabled',
];

export const REAL_PARTS: InitLimiterParts = {
  Stream_HoldSlotAcrossSend: async (slot, sent) => slot.release(await sent),
  Stream_CaptureDoneBeforeClose: async (writer, closeBatch, pause) => {
    const done = writer.deliveryDone();
    closeBatch();
    const p = pause();
    if (p) await p;
    return { done };
  },
  Serialize_KeyedByVersion: (format, version) => `${format}@${version}`,
  Peek_KeyedByBasis: (basis) => (basis === null ? 'none' : `basis@${basis}`),
  Serialize_ReadsAfterAdmit: (_peeked, store) => store.snapshot(),
  Poll_ClearDeadlineOnReturn: (w, owner) => {
    setWriteDeadline(w, null, owner);
  },
  Deadline_ScopedToDelivery: SCOPED_TO_DELIVERY,
  Deadline_ThroughputFloor: THROUGHPUT_FLOOR,
  Stream_NoIdleTimeout: (batch, event) => batch.offer(event).taken,
  Shed_ClosesConnection: (conn) => conn.close(),
  UpToDate_NoSlot: provideInitLimiter,
  Deadline_ReachesSocket: (inner, log, req) => new LoggingWriter(inner, log, req),
  Deadline_OnlyWhenEnabled: (limiterEnabled) => limiterEnabled,
};

/** What a mutants/init-limiter/impl/In.ts module default-exports. */
export interface InitLimiterPatch {
  readonly system: 'init-limiter';
  /** One line: what the patch changes. */
  readonly description?: string;
  readonly parts: Partial<InitLimiterParts>;
}

export class PatchError extends Error {}

/** The patch `x` is, or a PatchError naming what is wrong (an unknown part, a part of the wrong shape). */
export function validatePatch(x: unknown): InitLimiterPatch {
  if (typeof x !== 'object' || x === null) throw new PatchError('an init-limiter patch is an object { system, parts }');
  const o = x as Record<string, unknown>;
  if (o.system !== 'init-limiter') throw new PatchError(`an init-limiter patch has system 'init-limiter', not ${JSON.stringify(o.system)}`);
  if (o.description !== undefined && typeof o.description !== 'string') throw new PatchError('a patch description is a string');
  const parts = o.parts;
  if (typeof parts !== 'object' || parts === null) throw new PatchError('a patch has parts: { <part name>: <replacement> }');
  const names = Object.keys(parts);
  if (names.length === 0) throw new PatchError('a patch replaces at least one part');
  for (const name of names) {
    if (!(PART_NAMES as readonly string[]).includes(name)) throw new PatchError(`unknown part '${name}' (the parts: ${PART_NAMES.join(', ')})`);
    const v = (parts as Record<string, unknown>)[name];
    if (name === 'Deadline_ThroughputFloor') {
      const b = v as Record<string, unknown> | null;
      if (typeof b !== 'object' || b === null || typeof b.sliceBytes !== 'function' || typeof b.deadline !== 'function')
        throw new PatchError(`part '${name}' is a WriteBudget { sliceBytes, deadline }`);
    } else if (typeof v !== 'function') {
      throw new PatchError(`part '${name}' is a function`);
    }
  }
  return x as InitLimiterPatch;
}

/** The real parts with the patch's replacements. */
export function patchedParts(patch?: InitLimiterPatch | null): InitLimiterParts {
  return patch ? { ...REAL_PARTS, ...validatePatch(patch).parts } : REAL_PARTS;
}

/** The patch a module default-exports (`file` from `root`); throws a PatchError naming the file. */
export async function loadInitLimiterPatch(file: string, root: string): Promise<InitLimiterPatch> {
  const patch = await importDefault(file, root);
  try {
    return validatePatch(patch);
  } catch (err) {
    throw new PatchError(`${file}: ${(err as Error).message}`);
  }
}
