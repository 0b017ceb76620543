/**
 * The one shared init limiter: `maxConcurrent` slots for full deliveries (polls and stream bases
 * alike), `maxQueued` waiters beyond them (0: no queue), and shedding past that. A slot is given
 * back through its Slot, once: a second release is counted (so a double release shows in /metrics)
 * and changes nothing. A waiter whose client goes away leaves the queue without a slot.
 */
import type { Metrics } from './metrics.js';

import type { Surface } from './surface.js';

export { SURFACES, type Surface } from './surface.js';

/** Why a slot was given back. */
export type ReleaseReason = 'sent' | 'disconnect' | 'cut' | 'returned' | 'abandoned';

export interface Slot {
  readonly surface: Surface;
  /** Gives the slot back; only the first call frees it. */
  release(reason: ReleaseReason): void;
  readonly released: boolean;
}

export interface LimiterLimits {
  readonly maxConcurrent: number;
  readonly maxQueued: number;
}

interface Waiter {
  readonly surface: Surface;
  readonly owner: string | null;
  /** Wakes the waiter to try for a freed slot. */
  wake: () => void;
}

/** A caller's hooks into its wait: when it queues, and just before a woken waiter takes a slot (Admit). */
export interface AcquireHooks {
  readonly onQueued?: () => void;
  readonly beforeAdmit?: () => Promise<void> | undefined;
  /** The client the caller is (x-client-id): the read-out of the test seams names holders and waiters by it. */
  readonly owner?: string | null;
}

export class InitLimiter {
  private inUse = 0;
  private readonly bySurface = new Map<Surface, number>();
  private readonly queue: Waiter[] = [];
  /** The owners of the slots held now (a slot of no named client counts as null). */
  private readonly owners = new Map<object, string | null>();

  constructor(
    readonly limits: LimiterLimits,
    private readonly metrics: Metrics,
    private readonly onReleased: () => void = () => {},
  ) {
    if (!Number.isInteger(limits.maxConcurrent) || limits.maxConcurrent < 1) throw new RangeError('an enabled limiter needs maxConcurrent ≥ 1');
    if (!Number.isInteger(limits.maxQueued) || limits.maxQueued < 0) throw new RangeError('maxQueued must be an integer ≥ 0');
  }

  get slotsInUse(): number {
    return this.inUse;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Slots held by deliveries of `surface` now. */
  slotsInUseBy(surface: Surface): number {
    return this.bySurface.get(surface) ?? 0;
  }

  /** Waiters of `surface` in the queue now. */
  queuedBy(surface: Surface): number {
    return this.queue.filter((w) => w.surface === surface).length;
  }

  /** The clients holding a slot now (named ones). */
  get holders(): string[] {
    return [...this.owners.values()].filter((o): o is string => o !== null);
  }

  /** The clients waiting in the queue now (named ones). */
  get waiting(): string[] {
    return this.queue.map((w) => w.owner).filter((o): o is string => o !== null);
  }

  private take(surface: Surface, owner: string | null): Slot {
    this.inUse += 1;
    this.bySurface.set(surface, (this.bySurface.get(surface) ?? 0) + 1);
    this.metrics.count('acquired_total', surface);
    return this.slot(surface, owner);
  }

  /**
   * A free slot now; else a place in the queue and a slot once one is freed; else 'shed' (slots and
   * queue full). 'gone': the client went away while it waited (`gone` resolved). A freed slot wakes
   * every waiter; a woken waiter passes `beforeAdmit` (the Admit hold point) and takes the slot if
   * it is still free — as in the spec, a caller finding a free slot takes it even while others wait
   * (in production the oldest waiter wakes first and nothing runs in between: first come, first served).
   */
  async acquire(surface: Surface, gone: Promise<unknown>, hooks: AcquireHooks = {}): Promise<Slot | 'shed' | 'gone'> {
    if (this.inUse < this.limits.maxConcurrent) return this.take(surface, hooks.owner ?? null);
    if (this.queue.length >= this.limits.maxQueued) {
      this.metrics.count('shed_total', surface);
      return 'shed';
    }
    let isGone = false;
    const waiter: Waiter = { surface, owner: hooks.owner ?? null, wake: () => {} };
    void gone.then(() => {
      isGone = true;
      waiter.wake();
    });
    this.queue.push(waiter);
    this.metrics.count('queued_total', surface);
    hooks.onQueued?.();
    const leave = () => {
      const i = this.queue.indexOf(waiter);
      if (i >= 0) this.queue.splice(i, 1);
    };
    for (;;) {
      await new Promise<void>((r) => (waiter.wake = r));
      if (!isGone) {
        const p = hooks.beforeAdmit?.();
        if (p) await p;
      }
      if (isGone) {
        leave();
        this.metrics.count('queue_abandoned_total', surface);
        return 'gone';
      }
      if (this.inUse < this.limits.maxConcurrent) {
        leave();
        return this.take(surface, hooks.owner ?? null);
      }
    }
  }

  private slot(surface: Surface, owner: string | null): Slot {
    let released = false;
    const key = {};
    this.owners.set(key, owner);
    return {
      surface,
      get released() {
        return released;
      },
      release: (reason: ReleaseReason) => {
        this.metrics.count('released_total', surface);
        if (released) {
          this.metrics.count('double_release_total', surface);
          return;
        }
        released = true;
        this.owners.delete(key);
        this.metrics.count(`release_${reason}_total` as const, surface);
        this.bySurface.set(surface, (this.bySurface.get(surface) ?? 1) - 1);
        this.inUse -= 1;
        this.onReleased();
        // Oldest first: in production the first woken takes the slot before the others run.
        for (const w of [...this.queue]) w.wake();
      },
    };
  }
}
