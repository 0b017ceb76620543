/** Wakes whoever waits for the real system to move (a message arrived, a start phase reached its gate). */
export class Signal {
  private waiters: (() => void)[] = [];

  notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves true once `pred()` holds, false when `ms` passed first (re-checked at every notify). */
  async until(pred: () => boolean, ms: number): Promise<boolean> {
    const end = performance.now() + ms;
    while (!pred()) {
      const left = end - performance.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return true;
  }
}
