/**
 * Server-sent events as a client reads them, and what a stream's events mean for the client: the
 * basis it was initialized from (a full basis, or told it is up to date), whether that basis came
 * whole, and the deltas after it — from which a lost or an out-of-place delta is plain to see.
 */

export interface SseEvent {
  readonly event: string;
  readonly data: string;
  /** Body bytes read when the event completed. */
  readonly atByte: number;
}

export class SseParser {
  /** The bytes of the line not yet ended, in the pieces they came in (joined once, at its newline). */
  private partial: Buffer[] = [];
  private event = '';
  private data: string[] = [];
  private bytes = 0;

  constructor(
    private readonly onEvent: (e: SseEvent) => void,
    private readonly onComment: () => void = () => {},
  ) {}

  /**
   * Each byte is scanned once: an FDv1 basis is one data line of megabytes, which a reader paced in
   * 16 KB reads delivers in hundreds of pieces — re-scanning what was pending on every piece made
   * the steady-reader check quadratic (200 ms a step by the end of a 6 MB line). A line is decoded
   * whole, so a character split across two reads is never mangled.
   */
  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    let from = 0;
    for (;;) {
      const i = chunk.indexOf(0x0a, from);
      if (i < 0) break;
      const piece = chunk.subarray(from, i);
      const whole = this.partial.length === 0 ? piece : Buffer.concat([...this.partial, piece]);
      this.partial = [];
      this.line(whole.toString('utf8').replace(/\r$/, ''));
      from = i + 1;
    }
    if (from < chunk.length) this.partial.push(chunk.subarray(from));
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0 || this.event !== '') this.onEvent({ event: this.event || 'message', data: this.data.join('\n'), atByte: this.bytes });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) {
      this.onComment();
      return;
    }
    const c = line.indexOf(':');
    const field = c < 0 ? line : line.slice(0, c);
    const value = c < 0 ? '' : line.slice(c + 1).replace(/^ /, '');
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }
}

export interface StreamView {
  /** 'full': a basis was sent; 'none': told up to date; null: nothing yet (or shed without a reply). */
  readonly intent: 'full' | 'none' | null;
  /** The version the client was initialized at (the basis's, or its own when up to date). */
  readonly basisVersion: number | null;
  /** The whole basis arrived (FDv2: payload-transferred after every object; FDv1: the put parsed). */
  readonly basisComplete: boolean;
  /** Objects of an FDv2 basis received. */
  readonly basisObjects: number;
  /** Versions of the deltas received after the basis, in order. */
  readonly deltas: readonly number[];
  /** Something arrived out of place: a delta inside a basis, an event that does not parse, a basis after a basis. */
  readonly problems: readonly string[];
  /** The client's data set now (key → value). */
  readonly flags: ReadonlyMap<string, string>;
}

function parse(data: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(data) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What `events` mean for the client; `ownBasis` is the basis it connected with (for an up-to-date reply). */
export function viewOf(events: readonly SseEvent[], ownBasis: ReadonlyMap<string, string> | null = null): StreamView {
  let intent: 'full' | 'none' | null = null;
  let basisVersion: number | null = null;
  let inBasis = false;
  let basisComplete = false;
  let basisObjects = 0;
  const deltas: number[] = [];
  const problems: string[] = [];
  const flags = new Map<string, string>();
  for (const [i, e] of events.entries()) {
    const d = parse(e.data);
    if (!d) {
      problems.push(`event ${i} (${e.event}) does not parse: ${e.data.slice(0, 80)}…`);
      continue;
    }
    if (e.event === 'server-intent') {
      if (intent !== null) problems.push(`event ${i}: a second server-intent`);
      basisVersion = Number(d.version);
      if (d.intent === 'none') {
        intent = 'none';
        basisComplete = true;
        for (const [k, v] of ownBasis ?? []) flags.set(k, v);
      } else {
        intent = 'full';
        inBasis = true;
      }
    } else if (e.event === 'put-object') {
      if (!inBasis) problems.push(`event ${i}: put-object outside a basis`);
      basisObjects += 1;
      flags.set(String(d.key), String(d.value));
    } else if (e.event === 'payload-transferred') {
      if (!inBasis) problems.push(`event ${i}: payload-transferred outside a basis`);
      inBasis = false;
      basisComplete = true;
    } else if (e.event === 'put') {
      if (intent !== null) problems.push(`event ${i}: a second basis`);
      intent = 'full';
      basisVersion = Number(d.version);
      basisComplete = true;
      for (const [k, v] of Object.entries((d.flags ?? {}) as Record<string, { value: string }>)) flags.set(k, v.value);
    } else if (e.event === 'patch') {
      if (inBasis) problems.push(`event ${i}: a delta (version ${String(d.version)}) inside an unfinished basis`);
      if (intent === null) problems.push(`event ${i}: a delta (version ${String(d.version)}) before any basis`);
      deltas.push(Number(d.version));
      flags.set(String(d.key), String(d.value));
    }
  }
  return { intent, basisVersion, basisComplete, basisObjects, deltas, problems, flags };
}

/** Versions after the basis up to `current` that never arrived (a lost delta), [] when none. */
export function missingVersions(v: StreamView, current: number): number[] {
  if (v.basisVersion === null) return [];
  const got = new Set(v.deltas);
  const missing: number[] = [];
  for (let x = v.basisVersion + 1; x <= current; x++) if (!got.has(x)) missing.push(x);
  return missing;
}
