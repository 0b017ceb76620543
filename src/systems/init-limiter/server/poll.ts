/**
 * The polling endpoints. /sdk/flags (FDv1 all-flags) is always a full delivery. /sdk/poll (FDv2,
 * server) and /sdk/poll/eval (FDv2, client-side: evaluated values) answer a client whose basis is
 * the current version with a small up-to-date reply, and only on the full-basis branch ask the gate
 * for a slot. Every body goes out with its Content-Length (the same framing gated or not).
 */
import type { IncomingMessage } from 'node:http';
import type { ServerEnv } from './env.js';
import type { Gate, PollHandler } from './gates.js';
import type { Surface } from './limiter.js';
import type { ResponseWriter } from './response.js';
import { pollBody, upToDateBody, type PollKind } from './wire.js';

async function writeJson(w: ResponseWriter, body: Buffer): Promise<void> {
  w.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  await w.end(body);
}

/** /sdk/flags: the whole data set (the gate took the slot on entry). */
export function allFlagsHandler(env: ServerEnv): PollHandler {
  return async (_req, w, gate) => {
    if (!(await gate.admit())) return;
    await writeJson(w, pollBody('flags', env.store.snapshot()));
  };
}

/** /sdk/poll and /sdk/poll/eval: up-to-date without a slot, the full basis with one. */
export function basisPollHandler(env: ServerEnv, kind: Exclude<PollKind, 'flags'>, surface: Surface, basisOf: (req: IncomingMessage) => number | null): PollHandler {
  return async (req, w, gate: Gate) => {
    const basis = basisOf(req);
    const current = env.store.snapshot();
    if (basis !== null && basis === current.version) {
      env.metrics.count('up_to_date_total', surface);
      await writeJson(w, upToDateBody(current.version));
      return;
    }
    if (!(await gate.admit())) return;
    // Read after admission: a wait in the queue must not serve what the store was before it.
    await writeJson(w, pollBody(kind, env.store.snapshot()));
  };
}
