/**
 * How verify shows progress: a live table redrawn in place on a terminal (stage, state, elapsed,
 * counts or the stage's last progress line), or one plain line per event (CI logs, --json).
 */
import { formatCounts, formatDuration } from '../core/format.js';
import type { StageOutcome } from '../report/verify-doc.js';

// Re-exported for the verify command, the benchmark and their tests (the helpers live in core).
export { formatCounts, formatDuration };

export interface ProgressSink {
  planned(stages: readonly string[]): void;
  started(stage: string): void;
  /** A progress line the stage printed on stderr. */
  line(stage: string, text: string): void;
  finished(outcome: StageOutcome): void;
  close(): void;
}

function outcomeLine(o: StageOutcome): string {
  const status = o.status === 'not-run' && o.allowedNotRun ? 'not-run (allowed)' : o.status;
  const counts = formatCounts(o.counts);
  const why = o.status === 'passed' ? o.summary : (o.reason ?? o.summary);
  return `${status} in ${formatDuration(o.durationMs)}${counts ? ` [${counts}]` : ''}: ${why}`;
}

/** One line per event. Stage progress lines are throttled per stage (every line still goes to the log). */
export class LineProgress implements ProgressSink {
  private readonly t0 = performance.now();
  private readonly lastLine = new Map<string, number>();
  constructor(
    private readonly write: (line: string) => void,
    private readonly throttleMs = 5_000,
  ) {}
  private emit(text: string): void {
    this.write(`[verify +${formatDuration(performance.now() - this.t0)}] ${text}`);
  }
  planned(stages: readonly string[]): void {
    this.emit(`stages: ${stages.join(', ')}`);
  }
  started(stage: string): void {
    this.emit(`${stage}: started`);
  }
  line(stage: string, text: string): void {
    const now = performance.now();
    if (now - (this.lastLine.get(stage) ?? -Infinity) < this.throttleMs) return;
    this.lastLine.set(stage, now);
    this.emit(`${stage}: ${text.slice(0, 200)}`);
  }
  finished(o: StageOutcome): void {
    this.emit(`${o.stage}: ${outcomeLine(o)}`);
  }
  close(): void {}
}

interface Row {
  state: 'waiting' | 'running' | 'done';
  started?: number;
  /** The stage's own wall time, once finished. */
  durationMs?: number;
  text: string;
  status?: string;
}

/** A table redrawn in place every 250 ms (stderr is a terminal). */
export class LiveProgress implements ProgressSink {
  private readonly rows = new Map<string, Row>();
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly out: NodeJS.WriteStream) {}
  planned(stages: readonly string[]): void {
    for (const s of stages) this.rows.set(s, { state: 'waiting', text: '' });
    this.timer = setInterval(() => this.draw(), 250);
    this.timer.unref();
    this.draw();
  }
  started(stage: string): void {
    this.rows.set(stage, { state: 'running', started: performance.now(), text: '' });
  }
  line(stage: string, text: string): void {
    const row = this.rows.get(stage);
    if (row) row.text = text;
  }
  finished(o: StageOutcome): void {
    const row = this.rows.get(o.stage);
    if (!row) return;
    row.state = 'done';
    row.durationMs = o.durationMs;
    row.status = o.status === 'not-run' && o.allowedNotRun ? 'not-run*' : o.status;
    row.text = [formatCounts(o.counts), o.status === 'passed' ? o.summary : (o.reason ?? o.summary)].filter(Boolean).join(' · ');
    this.draw();
  }
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.draw();
  }
  private draw(): void {
    const width = Math.max(60, this.out.columns ?? 100);
    const now = performance.now();
    const glyph: Record<string, string> = { passed: '✔', failed: '✘', error: '✘', 'not-run': '○', 'not-run*': '○' };
    const spin = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'[Math.floor(now / 100) % 10]!;
    const lines = [...this.rows.entries()].map(([name, r]) => {
      const elapsed = r.durationMs !== undefined ? formatDuration(r.durationMs) : r.started === undefined ? '' : formatDuration(now - r.started);
      const mark = r.state === 'waiting' ? '·' : r.state === 'running' ? spin : (glyph[r.status ?? ''] ?? '?');
      const state = r.state === 'done' ? r.status! : r.state;
      const line = `${mark} ${name.padEnd(16)} ${state.padEnd(9)} ${elapsed.padStart(7)}  ${r.text}`;
      return line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line;
    });
    let s = this.drawn > 0 ? `\x1b[${this.drawn}F` : '';
    for (const l of lines) s += `\x1b[2K${l}\n`;
    this.drawn = lines.length;
    this.out.write(s);
  }
}
