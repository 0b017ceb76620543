/**
 * What a replica of a tour instance gets for each `client()` call: a lease on the rig's pooled
 * connections that answers the few calls PauseReplica makes (MGET on a command connection,
 * `on('message')` + SUBSCRIBE on a subscriber connection, quit/disconnect) and lets the driver
 * decide the fate of the replica's next read: sent to the user without MGET (a real NOPERM), or
 * answered by Valkey and then held until the driver lets the reply land. The barrier messages the
 * driver publishes behind every step never reach the replica.
 */
import type { Redis } from 'ioredis';

export const BARRIER_PREFIX = '\u0000fencecheck-barrier:';

/** The driver's switch for one replica's reads, shared by its leases. */
export interface LeaseControl {
  /** The fate of the next MGET. */
  next: 'ok' | 'fail' | 'hold';
  /** Set while a held reply waits: calling it lets the reply land. */
  landing: (() => void) | null;
  /** Commands this replica sent (the hot read must send none). */
  sent: number;
  /** Called when something changed (a reply is held, a message or barrier arrived). */
  notify(): void;
}

export interface LeasePools {
  readonly command: Redis;
  readonly failing: Redis;
  /** Subscribes on a pooled subscriber connection; returns the release. */
  subscribe(lease: ConnectionLease, channel: string): Promise<() => void>;
}

type MessageHandler = (channel: string, text: string) => void;

export class ConnectionLease {
  private readonly handlers: MessageHandler[] = [];
  private channel: string | null = null;
  private unsubscribe: (() => void) | null = null;
  /** The SUBSCRIBE was confirmed by the server and not released since. */
  subscribed = false;
  /** The last barrier this lease's subscription received. */
  lastBarrier = -1;
  released = false;

  constructor(
    private readonly control: LeaseControl,
    private readonly pools: LeasePools,
  ) {}

  on(event: string, fn: MessageHandler): this {
    if (event === 'message') this.handlers.push(fn);
    return this;
  }

  async subscribe(channel: string): Promise<number> {
    this.control.sent++;
    this.channel = channel;
    this.unsubscribe = await this.pools.subscribe(this, channel);
    if (this.released) this.unsubscribe();
    else this.subscribed = true;
    return 1;
  }

  async mget(...keys: string[]): Promise<(string | null)[]> {
    this.control.sent++;
    const fate = this.control.next;
    this.control.next = 'ok';
    if (fate === 'fail') return this.pools.failing.mget(...keys);
    const reply = await this.pools.command.mget(...keys);
    if (fate === 'hold') {
      await new Promise<void>((land) => {
        this.control.landing = land;
        this.control.notify();
      });
      this.control.landing = null;
    }
    return reply;
  }

  /** A message on the subscribed channel (from the rig's dispatcher). */
  message(text: string): void {
    if (!this.subscribed || this.channel === null) return;
    for (const h of this.handlers) h(this.channel, text);
  }

  barrier(text: string): void {
    this.lastBarrier = Number(text.slice(BARRIER_PREFIX.length));
    this.control.notify();
  }

  disconnect(): void {
    this.released = true;
    this.subscribed = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  async quit(): Promise<'OK'> {
    this.disconnect();
    return 'OK';
  }
}
