/**
 * Progress of a long command (props, limiter, conform, impl mutants; verify forwards its stages'
 * lines). One `ProgressConsole` per command owns stderr: on a terminal a meter is one line redrawn in
 * place (counts, share, elapsed, an estimate of what is left) and log lines are printed above it; in
 * CI or a pipe (verify's stages) a meter prints a plain line every few seconds and at its end.
 */
import { formatDuration } from './format.js';

export interface ProgressStream {
  write(s: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** How often a plain progress line is printed (ms); `FENCECHECK_PROGRESS_MS` overrides. */
export const PLAIN_EVERY_MS = 5_000;

/** A live meter only on a terminal outside CI; `FENCECHECK_PROGRESS=plain` forces plain lines. */
export function liveProgress(stream: ProgressStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.CI && env.FENCECHECK_PROGRESS !== 'plain';
}

/**
 * `label: 120/500 runs (24 %), 30.1s, about 1m35s left · extra`. The estimate is the rate since the
 * first unit was done (start-up time, e.g. of the topology, is not work), shown once that rate rests
 * on at least a second of work.
 */
export function progressText(label: string, done: number, total: number, unit: string, elapsedMs: number, extra?: string, rate?: { readonly units: number; readonly ms: number }): string {
  const shown = Math.min(done, total);
  const pct = total > 0 ? Math.floor((100 * shown) / total) : 0;
  const r = rate ?? { units: shown, ms: elapsedMs };
  const left = shown < total && r.units > 0 && r.ms >= 1000 ? `, about ${formatDuration((r.ms / r.units) * (total - shown))} left` : '';
  return `${label}: ${shown}/${total} ${unit} (${pct} %), ${formatDuration(elapsedMs)}${left}${extra ? ` · ${extra}` : ''}`;
}

export class ProgressMeter {
  private readonly t0: number;
  private lastPlain: number;
  private doneCount = 0;
  private extra: string | undefined;
  private finished = false;
  /** When the first unit was reported done, and how many were done by then. */
  private first: { at: number; done: number } | null = null;
  constructor(
    private readonly owner: ProgressConsole,
    readonly label: string,
    private total: number,
    readonly unit: string,
  ) {
    this.t0 = owner.now();
    this.lastPlain = this.t0;
  }
  text(): string {
    const now = this.owner.now();
    const rate = this.first ? { units: Math.min(this.doneCount, this.total) - this.first.done, ms: now - this.first.at } : { units: 0, ms: 0 };
    return progressText(this.label, this.doneCount, this.total, this.unit, now - this.t0, this.extra, rate);
  }
  /** `total` changes the meter's total (known only once the work has started, e.g. the tour's attempts). */
  update(done: number, extra?: string, total?: number): void {
    if (this.finished) return;
    if (total !== undefined) this.total = total;
    this.doneCount = done;
    this.extra = extra;
    const now = this.owner.now();
    if (this.first === null && done > 0) this.first = { at: now, done };
    if (this.owner.live) this.owner.redraw(this);
    else if (now - this.lastPlain >= this.owner.plainEveryMs) {
      this.lastPlain = now;
      this.owner.log(this.text());
    }
  }
  /** The meter's last line stays in a plain log when something was shown; on a terminal it is cleared. */
  done(): void {
    if (this.finished) return;
    this.finished = true;
    this.owner.release(this);
  }
}

export class ProgressConsole {
  readonly live: boolean;
  readonly plainEveryMs: number;
  private current: ProgressMeter | null = null;
  private shown = false;
  private lastDraw = 0;
  constructor(
    private readonly stream: ProgressStream = process.stderr,
    env: NodeJS.ProcessEnv = process.env,
    readonly now: () => number = () => performance.now(),
  ) {
    this.live = liveProgress(stream, env);
    const every = Number(env.FENCECHECK_PROGRESS_MS);
    this.plainEveryMs = Number.isFinite(every) && every >= 0 ? every : PLAIN_EVERY_MS;
  }
  /** A line of the command's log: printed above the live meter (which is redrawn after it). */
  log(line: string): void {
    this.clear();
    this.stream.write(`${line}\n`);
    if (this.live && this.current) this.draw(this.current);
  }
  meter(label: string, total: number, unit: string): ProgressMeter {
    const m = new ProgressMeter(this, label, total, unit);
    this.current = m;
    if (this.live) this.draw(m);
    return m;
  }
  /** @internal */
  redraw(m: ProgressMeter): void {
    // At most ten redraws a second: a terminal is slow, a tour makes thousands of updates.
    if (this.now() - this.lastDraw < 100) return;
    this.draw(m);
  }
  /** @internal */
  release(m: ProgressMeter): void {
    if (this.current !== m) return;
    this.clear();
    this.current = null;
  }
  close(): void {
    this.clear();
    this.current = null;
  }
  private draw(m: ProgressMeter): void {
    this.lastDraw = this.now();
    const cols = this.stream.columns && this.stream.columns >= 20 ? this.stream.columns : 100;
    const width = cols - 1;
    const t = m.text();
    this.stream.write(`\r\x1b[2K${t.length > width ? `${t.slice(0, width - 1)}…` : t}`);
    this.shown = true;
  }
  private clear(): void {
    if (this.live && this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
