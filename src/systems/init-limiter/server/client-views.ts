/**
 * The per-client read-out of the test seams (GET /_control/clients): what the server itself holds
 * for each client a request named (x-client-id) — where its request is (peeking, queued,
 * serializing, sending, live, shed but open, idle between polls, closed), the versions the code
 * used (the peek's read, the store's version at admission, the snapshot asked for, the basis the
 * serialization gave), whether the producer lost its done signal, the connection's write deadline
 * and the delivery writer's own, the bytes the socket still holds, and every deadline cut with the
 * phase it cut. The code sets these where it acts (stream.ts, gates.ts); the limiter's holders and
 * waiters come from the limiter. Off in production: no views are kept (env.views is null).
 */
import type { Socket } from 'node:net';
import type { Clock } from './clock.js';
import type { DeliveryWriter } from './delivery-writer.js';
import type { Surface } from './surface.js';

export type ServerPhase = 'peeking' | 'queued' | 'serializing' | 'sending' | 'live' | 'stranded' | 'idle' | 'closed';

/** The producer of a stream basis: handing it over, waiting for the send (after the done signal was read), or done (slot given back). */
export type ProducerStage = 'none' | 'handing' | 'awaiting' | 'done';

export interface ClientView {
  readonly client: string;
  readonly kind: 'stream' | 'poll';
  surface: Surface;
  phase: ServerPhase;
  basis: number | null;
  pv: number | null;
  adm: number | null;
  asked: number | null;
  sent: number | null;
  /** The stream producer read a done signal that was already gone (it then waits for the close). */
  doneLost: boolean;
  producer: ProducerStage;
  /** A stream's replay (the producer) has returned: shed, up to date, sent, or gone. */
  replayDone: boolean;
  socket: Socket | null;
  writer: DeliveryWriter | null;
  /** Every deadline cut of this client's connections, with the phase it cut. */
  readonly cuts: ServerPhase[];
}

/** One client as /_control/clients shows it. */
export interface ClientReadout {
  readonly client: string;
  readonly kind: 'stream' | 'poll';
  readonly surface: Surface;
  readonly phase: ServerPhase;
  readonly basis: number | null;
  readonly pv: number | null;
  readonly adm: number | null;
  readonly asked: number | null;
  readonly sent: number | null;
  readonly doneLost: boolean;
  readonly producer: ProducerStage;
  readonly replayDone: boolean;
  /** The connection is open (its socket not destroyed). */
  readonly open: boolean;
  /** The connection's write deadline (the server's clock), null when none is set. */
  readonly deadline: number | null;
  /** A basis or poll delivery is in progress on its writer. */
  readonly inDelivery: boolean;
  /** The deadline the delivery writer computed for its last piece (null before its first write). */
  readonly writerDeadline: number | null;
  /** Bytes the socket holds that the kernel has not taken (a write blocked on a client not reading). */
  readonly pendingBytes: number;
  /** Bytes the kernel has taken on this connection. */
  readonly kernelBytes: number;
  readonly cuts: readonly ServerPhase[];
}

export interface ClientsReadout {
  readonly now: number;
  readonly version: number;
  readonly slotsInUse: number;
  readonly holders: readonly string[];
  readonly queue: readonly string[];
  readonly clients: readonly ClientReadout[];
}

export class ClientViews {
  private readonly byClient = new Map<string, ClientView>();
  private readonly bySocket = new WeakMap<Socket, ClientView>();

  /** The view of `client` for a new request (a stream: a fresh view; a poll: its connection's, kept across requests). */
  open(client: string, kind: 'stream' | 'poll', surface: Surface, socket: Socket | null): ClientView {
    const old = this.byClient.get(client);
    const v: ClientView =
      kind === 'poll' && old && old.kind === 'poll'
        ? old
        : {
            client,
            kind,
            surface,
            phase: 'idle',
            basis: null,
            pv: null,
            adm: null,
            asked: null,
            sent: null,
            doneLost: false,
            producer: 'none',
            replayDone: false,
            socket: null,
            writer: null,
            cuts: old?.cuts ?? [],
          };
    v.surface = surface;
    v.socket = socket;
    this.byClient.set(client, v);
    if (socket) this.bySocket.set(socket, v);
    return v;
  }

  /** A deadline cut `socket`: recorded with the phase its client was in. */
  cut(socket: Socket): void {
    const v = this.bySocket.get(socket);
    if (v) v.cuts.push(v.phase);
  }

  render(clock: Clock, version: number, deadlineOf: (s: Socket) => number | null, limiter: { slotsInUse: number; holders: readonly string[]; queue: readonly string[] }): ClientsReadout {
    const clients = [...this.byClient.values()].map((v): ClientReadout => {
      const s = v.socket;
      const open = s !== null && !s.destroyed;
      return {
        client: v.client,
        kind: v.kind,
        surface: v.surface,
        phase: v.phase,
        basis: v.basis,
        pv: v.pv,
        adm: v.adm,
        asked: v.asked,
        sent: v.sent,
        doneLost: v.doneLost,
        producer: v.producer,
        replayDone: v.replayDone,
        open,
        deadline: s && open ? deadlineOf(s) : null,
        inDelivery: v.writer?.inDelivery ?? false,
        writerDeadline: v.writer?.lastDeadline ?? null,
        pendingBytes: s && open ? s.writableLength : 0,
        kernelBytes: s ? s.bytesWritten - s.writableLength : 0,
        cuts: [...v.cuts],
      };
    });
    return { now: clock.now(), version, slotsInUse: limiter.slotsInUse, holders: [...limiter.holders].sort(), queue: [...limiter.queue].sort(), clients };
  }
}

/** Sets fields of a view (none when the seams are off or the request named no client). */
export function mark(v: ClientView | null, fields: Partial<Omit<ClientView, 'client' | 'kind' | 'cuts'>>): void {
  if (v) Object.assign(v, fields);
}
