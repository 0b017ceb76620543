/**
 * Writes batched per event-loop turn on a client with many commands in flight (the exhaustive
 * tour): every command sent in one turn leaves in one socket write — the socket is corked at the
 * turn's first command and uncorked once the turn is over (setImmediate) — instead of one write
 * system call per command, which was the largest single cost of the tour's harness. Nothing else
 * changes: the same commands in the same order, each with its own reply, timeout and errors. On a
 * Cluster, every node connection, also those it opens later.
 */
import { Cluster, type Redis } from 'ioredis';
import type { ValkeyClient } from './types.js';

type Send = Redis['sendCommand'];

const BATCHED = Symbol('fencecheck.batchedWrites');

function batchNode(node: Redis): void {
  const target = node as Redis & { [BATCHED]?: true; stream?: { writable: boolean; cork(): void; uncork(): void } };
  if (target[BATCHED]) return;
  target[BATCHED] = true;
  const send: Send = target.sendCommand;
  let corked: { uncork(): void } | null = null;
  const flush = () => {
    const s = corked;
    corked = null;
    s?.uncork();
  };
  target.sendCommand = function (this: Redis, ...args: Parameters<Send>) {
    const stream = target.stream;
    if (corked === null && stream?.writable) {
      stream.cork();
      corked = stream;
      setImmediate(flush);
    }
    return send.apply(this, args);
  } as Send;
}

export function batchWrites(client: ValkeyClient): void {
  if (client instanceof Cluster) {
    for (const node of client.nodes('all')) batchNode(node);
    client.on('+node', (node: Redis) => batchNode(node));
  } else batchNode(client);
}
