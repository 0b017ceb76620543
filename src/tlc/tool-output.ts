import { TlcOutputError } from './errors.js';
import { parseTlaState, type TlaValue } from './tla-value.js';

/**
 * TLC's machine-readable output (`-tool`): every message is framed as
 *   @!@!@STARTMSG <code>:<severity> @!@!@ … @!@!@ENDMSG <code> @!@!@
 * Codes are tlc2.output.EC constants; SANY's own diagnostics arrive as unframed lines.
 */
export const EC = {
  GENERAL: 1000,
  OUT_OF_MEMORY: 1001,
  OUT_OF_MEMORY_INIT: 1002,
  OUT_OF_MEMORY_LIVENESS: 1003,
  STACK_OVERFLOW: 1005,
  NESTED_EXPRESSION: 2103,
  ASSUMPTION_FALSE: 2104,
  ASSUMPTION_EVALUATION_ERROR: 2105,
  INVARIANT_VIOLATED_INITIAL: 2107,
  PROPERTY_VIOLATED_INITIAL: 2108,
  INVARIANT_VIOLATED_BEHAVIOR: 2110,
  INVARIANT_EVALUATION_FAILED: 2111,
  ACTION_PROPERTY_VIOLATED_BEHAVIOR: 2112,
  DEADLOCK_REACHED: 2114,
  TEMPORAL_PROPERTY_VIOLATED: 2116,
  NO_STATES_SATISFYING_INIT: 2118,
  BEHAVIOR_UP_TO_THIS_POINT: 2121,
  BACK_TO_STATE: 2122,
  PARSING_FAILED2: 2171,
  STARTING: 2185,
  FINISHED: 2186,
  SUCCESS: 2193,
  SEARCH_DEPTH: 2194,
  STATS: 2199,
  STATE_PRINT2: 2217,
  STATE_PRINT3: 2218,
  SANY_END: 2219,
  SANY_START: 2220,
  VERSION: 2262,
  PARSING_FAILED: 3002,
  CFG_ERROR_READING_FILE: 5001,
  CFG_GENERAL: 5002,
} as const;

export interface TlcMessage {
  readonly code: number;
  /** 0 info, 1 error, 2 TLC bug, 3 warning, 4 state print. */
  readonly severity: number;
  readonly body: string;
}

export interface ToolOutput {
  readonly messages: readonly TlcMessage[];
  /** Lines outside any message (SANY's parse/semantic diagnostics, JVM errors). */
  readonly stray: readonly string[];
}

const START = /^@!@!@STARTMSG (\d+):(\d+) @!@!@$/;
const END = /^@!@!@ENDMSG (\d+) @!@!@$/;

/** Splits `-tool` output into messages; throws TlcOutputError on broken framing. */
export function splitToolOutput(text: string): ToolOutput {
  const messages: TlcMessage[] = [];
  const stray: string[] = [];
  const stack: { code: number; severity: number; lines: string[] }[] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (const [n, line] of lines.entries()) {
    const s = START.exec(line);
    if (s) {
      stack.push({ code: Number(s[1]), severity: Number(s[2]), lines: [] });
      continue;
    }
    const e = END.exec(line);
    if (e) {
      const open = stack.pop();
      if (!open || open.code !== Number(e[1])) {
        throw new TlcOutputError(`malformed TLC -tool output: ENDMSG ${e[1]} at line ${n + 1} closes ${open ? `message ${open.code}` : 'nothing'}`);
      }
      messages.push({ code: open.code, severity: open.severity, body: open.lines.join('\n').replace(/\n+$/, '') });
      continue;
    }
    const top = stack[stack.length - 1];
    if (top) top.lines.push(line);
    else stray.push(line);
  }
  if (stack.length > 0) throw new TlcOutputError(`malformed TLC -tool output: message ${stack[stack.length - 1]!.code} never ends (truncated output?)`);
  return { messages, stray };
}

export type TlcOutcome =
  | 'ok'
  | 'invariant-violation'
  | 'property-violation'
  | 'deadlock'
  | 'assumption-false'
  | 'parse-error'
  | 'eval-error'
  | 'crash';

export interface SanyDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface TlcTraceStep {
  /** 1-based position in TLC's trace. */
  readonly index: number;
  /** The action's name (`Init` for the initial state); `Stuttering` / `BackToState` for lasso ends. */
  readonly action: string;
  /** The action's arguments as TLC printed them, e.g. ['p1']. Empty when TLC printed none. */
  readonly args: readonly string[];
  readonly vars: Readonly<Record<string, TlaValue>>;
}

export interface TlcResult {
  /** TLC's version line, e.g. `TLC2 Version 2.19 of 08 August 2024 (rev: 5a47802)`. */
  readonly version?: string;
  readonly outcome: TlcOutcome;
  readonly generated?: number;
  readonly distinct?: number;
  readonly left?: number;
  readonly depth?: number;
  /** TLC's own run time ("Finished in …"). */
  readonly durationMs?: number;
  /** The invariant (or property) TLC reported violated. */
  readonly violated?: string;
  readonly trace: readonly TlcTraceStep[];
  readonly sany: readonly SanyDiagnostic[];
  /** Error messages (severity ≥ 1, other than the trace) in TLC's words. */
  readonly errors: readonly string[];
}

/** Interprets complete `-tool` output. Throws TlcOutputError when it is not TLC output at all. */
export function parseToolOutput(text: string): TlcResult {
  const { messages, stray } = splitToolOutput(text);
  if (messages.length === 0) {
    const head = stray.filter((l) => l.trim()).slice(0, 3).join(' | ');
    throw new TlcOutputError(`not TLC -tool output (no @!@!@STARTMSG frames)${head ? `: ${head}` : ''}`);
  }
  const first = (code: number) => messages.find((m) => m.code === code);
  const has = (code: number) => messages.some((m) => m.code === code);

  const version = first(EC.VERSION)?.body.split('\n')[0]?.trim();
  const stats = lastMatch(messages, EC.STATS, /([\d,]+) states generated, ([\d,]+) distinct states found, ([\d,]+) states left on queue/);
  const depth = lastMatch(messages, EC.SEARCH_DEPTH, /search is ([\d,]+)/);
  const finished = messages.filter((m) => m.code === EC.FINISHED).pop();

  let violated: string | undefined;
  const inv = first(EC.INVARIANT_VIOLATED_BEHAVIOR) ?? first(EC.INVARIANT_VIOLATED_INITIAL);
  if (inv) {
    const m = /Invariant (\S+) is violated/.exec(inv.body);
    if (!m) throw new TlcOutputError(`cannot read the violated invariant from "${inv.body.slice(0, 100)}"`);
    violated = m[1];
  }
  const prop = first(EC.ACTION_PROPERTY_VIOLATED_BEHAVIOR) ?? first(EC.PROPERTY_VIOLATED_INITIAL) ?? first(EC.TEMPORAL_PROPERTY_VIOLATED);
  if (!violated && prop) violated = /(?:property|Property) (\S+) is violated/.exec(prop.body)?.[1] ?? 'temporal property';

  const sany = parseSanyDiagnostics(stray);
  const traceCodes = new Set<number>([EC.STATE_PRINT2, EC.STATE_PRINT3, EC.BACK_TO_STATE]);
  const trace = messages.filter((m) => traceCodes.has(m.code)).map(parseTraceMessage);
  const errorCodes = new Set<number>([EC.BEHAVIOR_UP_TO_THIS_POINT, ...traceCodes]);
  const errors = messages.filter((m) => m.severity >= 1 && m.severity <= 2 && !errorCodes.has(m.code)).map((m) => m.body.trim()).filter(Boolean);

  let outcome: TlcOutcome;
  if (has(EC.PARSING_FAILED) || has(EC.PARSING_FAILED2) || (sany.length > 0 && !has(EC.STARTING))) outcome = 'parse-error';
  else if (has(EC.ASSUMPTION_FALSE)) outcome = 'assumption-false';
  else if (inv) outcome = 'invariant-violation';
  else if (prop) outcome = 'property-violation';
  else if (has(EC.DEADLOCK_REACHED)) outcome = 'deadlock';
  else if (has(EC.SUCCESS)) outcome = 'ok';
  else if ([EC.GENERAL, EC.NESTED_EXPRESSION, EC.ASSUMPTION_EVALUATION_ERROR, EC.INVARIANT_EVALUATION_FAILED].some(has)) outcome = 'eval-error';
  else outcome = 'crash';

  return {
    ...(version !== undefined && { version }),
    outcome,
    ...(stats && { generated: num(stats[1]!), distinct: num(stats[2]!), left: num(stats[3]!) }),
    ...(depth && { depth: num(depth[1]!) }),
    ...(finished && { durationMs: parseFinished(finished.body) }),
    ...(violated !== undefined && { violated }),
    trace,
    sany,
    errors,
  };
}

function lastMatch(messages: readonly TlcMessage[], code: number, re: RegExp): RegExpExecArray | null {
  const m = messages.filter((x) => x.code === code).pop();
  return m ? re.exec(m.body) : null;
}

function num(s: string): number {
  return Number(s.replace(/,/g, ''));
}

/** "Finished in 848ms at (…)" or "Finished in 01h 02min 03s at (…)". */
export function parseFinished(body: string): number | undefined {
  const ms = /Finished in (\d+)ms/.exec(body);
  if (ms) return Number(ms[1]);
  const hms = /Finished in (?:(\d+)h )?(?:(\d+)min )?(\d+)s/.exec(body);
  if (!hms) return undefined;
  return ((Number(hms[1] ?? 0) * 60 + Number(hms[2] ?? 0)) * 60 + Number(hms[3])) * 1000;
}

const LABEL = /^(\d+): <(.*?)(?: line \d+, col \d+ to line \d+, col \d+ of module \S+)?>\s*$/;

function parseTraceMessage(m: TlcMessage): TlcTraceStep {
  const [head = '', ...rest] = m.body.split('\n');
  if (m.code === EC.STATE_PRINT3) {
    const idx = /^(\d+):/.exec(head);
    return { index: idx ? Number(idx[1]) : 0, action: 'Stuttering', args: [], vars: {} };
  }
  if (m.code === EC.BACK_TO_STATE) {
    const idx = /^(\d+):/.exec(head);
    return { index: idx ? Number(idx[1]) : 0, action: 'BackToState', args: [], vars: {} };
  }
  const l = LABEL.exec(head.trim());
  if (!l) throw new TlcOutputError(`cannot read the trace step label "${head.slice(0, 120)}"`);
  const label = l[2]!.trim();
  let action: string;
  let args: string[] = [];
  if (label === 'Initial predicate') action = 'Init';
  else {
    const a = /^([A-Za-z_][A-Za-z0-9_!]*)(?:\((.*)\))?$/.exec(label);
    if (!a) throw new TlcOutputError(`cannot read the action in trace label "${label}"`);
    action = a[1]!;
    args = a[2] ? splitArgs(a[2]) : [];
  }
  return { index: Number(l[1]), action, args, vars: parseTlaState(rest.join('\n')) };
}

/** Splits `p1, "x", [a |-> 1]` at top-level commas. */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  let inStr = false;
  for (const c of s) {
    if (inStr) {
      cur += c;
      if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    if ('([{<'.includes(c)) depth++;
    if (')]}>'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/**
 * SANY's diagnostics (unframed lines): parse errors ("Encountered … at line L, column C" with
 * "Could not parse module M from file F") and semantic errors ("line L, col C to … of module M"
 * followed by the message).
 */
export function parseSanyDiagnostics(stray: readonly string[]): SanyDiagnostic[] {
  const out: SanyDiagnostic[] = [];
  const text = stray.join('\n');
  if (/\*\*\*Parse Error\*\*\*|Lexical error/.test(text)) {
    const file = /Could not parse module \S+ from file (\S+)/.exec(text)?.[1] ?? /Fatal errors while parsing TLA\+ spec in file (\S+)/.exec(text)?.[1] ?? 'unknown';
    const pos = /((?:Encountered|Lexical error)[^\n]*?at line (\d+), column (\d+)[^\n]*)/.exec(text);
    out.push({
      file: file.endsWith('.tla') ? file : `${file}.tla`,
      line: pos ? Number(pos[2]) : 0,
      column: pos ? Number(pos[3]) : 0,
      message: pos ? pos[1]!.trim() : 'parse error',
    });
    return out;
  }
  // Semantic errors follow "*** Errors: N" (warnings, after "*** Warnings", use the same layout).
  const from = stray.findIndex((l) => /\*\*\* Errors: \d+/.test(l));
  for (let i = from < 0 ? stray.length : from; i < stray.length; i++) {
    if (/\*\*\* Warnings/.test(stray[i]!)) break;
    const m = /^line (\d+), col (\d+) to line \d+, col \d+ of module (\S+)\s*$/.exec(stray[i]!.trim());
    if (!m) continue;
    let j = i + 1;
    while (j < stray.length && stray[j]!.trim() === '') j++;
    out.push({ file: `${m[3]}.tla`, line: Number(m[1]), column: Number(m[2]), message: (stray[j] ?? '').trim() });
  }
  if (out.length === 0) {
    // A failure SANY reports without a position (e.g. a missing module): keep its words.
    const msg = /(Cannot find source file for module \S+|File name '[^']*' does not match[^\n]*|Could not parse module[^\n]*)/.exec(text);
    if (msg) out.push({ file: 'unknown', line: 0, column: 0, message: msg[1]!.trim() });
  }
  return out;
}
