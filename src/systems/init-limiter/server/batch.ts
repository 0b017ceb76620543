/**
 * The hand-over of a basis from the producer (the replay) to the connection's writer: a rendezvous
 * channel, as in the relay (the replay goroutine sends each event on a channel the eventsource
 * handler drains, then closes it; the close is the end of the batch). An offer is taken only when
 * the writer is ready for it, so the producer waits while the writer is blocked on a slow socket.
 */
export type OfferOutcome = 'taken' | 'closed';

export interface Offer {
  /** 'taken' once the writer has it; 'closed' if the connection closed first. */
  readonly taken: Promise<OfferOutcome>;
  /** Takes the event back if the writer has not taken it yet (true: withdrawn). */
  withdraw(): boolean;
}

interface Pending {
  readonly event: Buffer;
  readonly settle: (o: OfferOutcome) => void;
}

export class Batch {
  private readonly offers: Pending[] = [];
  private taker: ((e: Buffer | null) => void) | null = null;
  private closedForSends = false;
  private aborted = false;

  offer(event: Buffer): Offer {
    if (this.aborted || this.closedForSends) return { taken: Promise.resolve('closed'), withdraw: () => false };
    let settle: (o: OfferOutcome) => void = () => {};
    const taken = new Promise<OfferOutcome>((r) => (settle = r));
    const p: Pending = { event, settle };
    if (this.taker) {
      const t = this.taker;
      this.taker = null;
      settle('taken');
      t(event);
    } else {
      this.offers.push(p);
    }
    return {
      taken,
      withdraw: () => {
        const i = this.offers.indexOf(p);
        if (i < 0) return false;
        this.offers.splice(i, 1);
        return true;
      },
    };
  }

  /** No more events: the writer's take() returns null once it has taken what was offered. */
  close(): void {
    this.closedForSends = true;
    if (this.taker && this.offers.length === 0) {
      const t = this.taker;
      this.taker = null;
      t(null);
    }
  }

  /** The next event, or null at the end of the batch (or when aborted). */
  take(): Promise<Buffer | null> {
    const next = this.offers.shift();
    if (next) {
      next.settle('taken');
      return Promise.resolve(next.event);
    }
    if (this.closedForSends || this.aborted) return Promise.resolve(null);
    return new Promise<Buffer | null>((r) => (this.taker = r));
  }

  /** The connection closed: every waiting offer resolves 'closed', the writer's take null. */
  abort(): void {
    this.aborted = true;
    for (const p of this.offers.splice(0)) p.settle('closed');
    if (this.taker) {
      const t = this.taker;
      this.taker = null;
      t(null);
    }
  }

  get isClosed(): boolean {
    return this.closedForSends;
  }
}
