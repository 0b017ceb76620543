/**
 * How a poll route meets the limiter (the relay's two middlewares). `limitConcurrency` takes a slot
 * on entry — for the all-flags poll, which is always a full delivery. `provideInitLimiter` only
 * makes the limiter available: the handler takes a slot lazily, on its full-basis branch, so an
 * up-to-date reply is never charged. Either way the response is written through a delivery writer
 * (deadlines while the slot is held), a full budget answers 503 with a jittered Retry-After and a
 * JSON body, and when the handler returns the slot is released and the connection's deadline
 * cleared (Poll_ClearDeadlineOnReturn), so the next request on a kept-alive connection is not cut.
 */
import type { IncomingMessage } from 'node:http';
import { mark, type ClientView } from './client-views.js';
import type { DeliveryWriter } from './delivery-writer.js';
import { clientOf, deliveryWriter, pass, type ServerEnv } from './env.js';
import type { Slot, Surface } from './limiter.js';
import type { ResponseWriter } from './response.js';
import { shedBody } from './wire.js';

export type RouteHandler = (req: IncomingMessage, w: ResponseWriter) => Promise<void>;

export interface Gate {
  /** true: go on and write the full reply (a slot is held, or the limiter is off); false: shed, the 503 is written. */
  admit(): Promise<boolean>;
}

export type PollHandler = (req: IncomingMessage, w: ResponseWriter, gate: Gate) => Promise<void>;
export type PollGate = (env: ServerEnv, surface: Surface) => (handler: PollHandler) => RouteHandler;

const OPEN_GATE: Gate = { admit: () => Promise.resolve(true) };

/** The limiter is off: the handler runs as it would without one (base behaviour, nothing wrapped). */
export function ungated(handler: PollHandler): RouteHandler {
  return (req, w) => handler(req, w, OPEN_GATE);
}

export async function writeShed(env: ServerEnv, w: ResponseWriter, surface: Surface): Promise<void> {
  const seconds = env.retryAfter();
  const body = shedBody(seconds);
  env.log('warn', 'init budget full: poll shed', { surface, retryAfterSeconds: seconds });
  w.writeHead(503, { 'content-type': 'application/json', 'retry-after': seconds, 'content-length': body.length });
  await w.end(body);
}

function acquire(env: ServerEnv, surface: Surface, w: ResponseWriter, client: string | null, view: ClientView | null): Promise<Slot | 'shed' | 'gone'> {
  return env.limiter!.acquire(surface, w.closed, {
    owner: client,
    onQueued: () => {
      mark(view, { phase: 'queued' });
      void pass(env, 'queue.enter', client);
    },
    beforeAdmit: () => pass(env, 'queue.admit', client, w.closed),
  });
}

/** The poll's read-out (test seams and a named client only): kept per client across its kept-alive requests. */
function pollView(env: ServerEnv, req: IncomingMessage, surface: Surface, client: string | null): ClientView | null {
  return env.views && client !== null ? env.views.open(client, 'poll', surface, req.socket) : null;
}

async function returned(env: ServerEnv, surface: Surface, slot: Slot | null, dw: DeliveryWriter, client: string | null, view: ClientView | null): Promise<void> {
  if (slot) {
    slot.release('returned');
    env.parts.Poll_ClearDeadlineOnReturn(dw, { surface });
  }
  mark(view, { phase: 'idle' });
  await pass(env, 'poll.returned', client);
}

/** A slot on entry; shed with 503 when the budget is full. */
export const limitConcurrency: PollGate = (env, surface) => (handler) => async (req, w) => {
  const client = clientOf(req);
  const view = pollView(env, req, surface, client);
  const slot = await acquire(env, surface, w, client, view);
  if (slot === 'gone') return;
  if (slot === 'shed') {
    await writeShed(env, w, surface);
    mark(view, { phase: 'idle' });
    return;
  }
  const dw = deliveryWriter(env, w, surface);
  dw.beginDelivery();
  mark(view, { phase: 'sending', writer: dw });
  try {
    await pass(env, 'poll.admitted', client, w.closed);
    await handler(req, dw, OPEN_GATE);
  } finally {
    await returned(env, surface, slot, dw, client, view);
  }
};

/** The limiter in reach; a slot only when the handler asks (its full-basis branch). */
export const provideInitLimiter: PollGate = (env, surface) => (handler) => async (req, w) => {
  const client = clientOf(req);
  const view = pollView(env, req, surface, client);
  const dw = deliveryWriter(env, w, surface);
  mark(view, { writer: dw });
  let slot: Slot | null = null;
  const gate: Gate = {
    admit: async () => {
      const got = await acquire(env, surface, w, client, view);
      if (got === 'gone') return false;
      if (got === 'shed') {
        await writeShed(env, dw, surface);
        return false;
      }
      slot = got;
      dw.beginDelivery();
      mark(view, { phase: 'sending' });
      await pass(env, 'poll.admitted', client, w.closed);
      return true;
    },
  };
  try {
    await handler(req, dw, gate);
  } finally {
    await returned(env, surface, slot, dw, client, view);
  }
};
