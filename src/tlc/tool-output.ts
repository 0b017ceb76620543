import { TlcOutputError } from './errors.js';
import { readTlaState, type TlaValue } from '../core/tla-value.js';

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
  COUNTER_EXAMPLE: 2264,
  PARSING_FAILED: 3002,
  CFG_ERROR_READING_FILE: 5001,
  CFG_GENERAL: 5002,
} as const;

/** A message's severity: 3 is a warning. */
export const SEVERITY_WARNING = 3;

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

// A frame may open mid-line: TLC prints a nested config-file message after `: ` (inside message 1000).
const START = /^(.*?)@!@!@STARTMSG (\d+):(\d+) @!@!@$/;
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
      const before = s[1]!;
      if (before.trim() !== '') {
        const outer = stack[stack.length - 1];
        if (outer) outer.lines.push(before);
        else stray.push(before);
      }
      stack.push({ code: Number(s[2]), severity: Number(s[3]), lines: [] });
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

export type TlcOutcome = 'ok' | 'invariant-violation' | 'property-violation' | 'deadlock' | 'assumption-false' | 'parse-error' | 'config-error' | 'eval-error' | 'crash';

/**
 * TLC's config-file errors: the CFG_* codes (5001..5099, a .cfg TLC cannot read) and the
 * TLC_CONFIG_* codes (a .cfg naming what the spec lacks), from tlc2/output/EC.java. TLC maps the
 * latter to exit status 151 (ERROR_CONFIG_PARSE); a .cfg syntax error arrives wrapped in message
 * 1000 and exits 255.
 */
const CONFIG_CODES: ReadonlySet<number> = new Set([
  2222, 2223, 2224, 2225, 2226, 2227, 2228, 2229, 2230, 2231, 2232, 2233, 2234, 2235, 2236, 2237, 2241, 2242, 2243, 2257, 2259, 2272, 2273, 2274, 2280, 2281,
]);
export function isConfigErrorCode(code: number): boolean {
  return CONFIG_CODES.has(code) || (code >= 5001 && code <= 5099);
}

/** What kind of property TLC reported violated. */
export type ViolationKind = 'invariant' | 'action-property' | 'temporal-property';

/**
 * How a liveness counterexample ends: a lasso whose last step goes back to an earlier state
 * (`N: Back to state: <Action …>`, TLC's message 2122), or stuttering forever in its last state
 * (`N: Stuttering`, 2218).
 */
export type TlcLoop =
  | { readonly kind: 'back-to-state'; readonly toIndex: number; readonly action: string; readonly args: readonly string[] }
  | { readonly kind: 'stuttering'; readonly toIndex: number };

/** A trace value the parser could not read: which step (TLC's 1-based index) and variable. */
export interface UnreadableTraceValue {
  readonly step: number;
  readonly variable: string;
  readonly message: string;
}

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
  readonly violationKind?: ViolationKind;
  /** The states of TLC's error trace (a lasso's closing step is in `loop`, not here). */
  readonly trace: readonly TlcTraceStep[];
  /** How a liveness counterexample loops. */
  readonly loop?: TlcLoop;
  /** Further error traces TLC printed after the first (`-continue`); only the first is in `trace`. */
  readonly laterTraces?: number;
  /** Trace values that could not be read (the variable holds `{ kind: 'unreadable' }`). */
  readonly unreadable?: readonly UnreadableTraceValue[];
  /**
   * TLC's exit status, when the run's was known (src/tlc/exit-status.ts), and whether it agrees with
   * the outcome read from the messages. `decided`: they disagreed and the status, which names one
   * outcome, decided it (`outcome` is the status's).
   */
  readonly exit?: { readonly code: number; readonly meaning: string; readonly agrees: boolean; readonly decided?: boolean };
  readonly sany: readonly SanyDiagnostic[];
  /** Error messages (severity ≥ 1, other than the trace) in TLC's words. */
  readonly errors: readonly string[];
}

/** Interprets complete `-tool` output. Throws TlcOutputError when it is not TLC output at all. */
export function parseToolOutput(text: string): TlcResult {
  const { messages, stray } = splitToolOutput(text);
  if (messages.length === 0) {
    const head = stray
      .filter((l) => l.trim())
      .slice(0, 3)
      .join(' | ');
    throw new TlcOutputError(`not TLC -tool output (no @!@!@STARTMSG frames)${head ? `: ${head}` : ''}`);
  }
  const first = (code: number) => messages.find((m) => m.code === code);
  const has = (code: number) => messages.some((m) => m.code === code);

  const version = first(EC.VERSION)?.body.split('\n')[0]?.trim();
  const stats = lastMatch(messages, EC.STATS, /([\d,]+) states generated, ([\d,]+) distinct states found, ([\d,]+) states left on queue/);
  const depth = lastMatch(messages, EC.SEARCH_DEPTH, /search is ([\d,]+)/);
  const finished = messages.filter((m) => m.code === EC.FINISHED).pop();

  let violated: string | undefined;
  let violationKind: ViolationKind | undefined;
  const inv = first(EC.INVARIANT_VIOLATED_BEHAVIOR) ?? first(EC.INVARIANT_VIOLATED_INITIAL);
  if (inv) {
    const m = /Invariant (\S+) is violated/.exec(inv.body);
    if (!m) throw new TlcOutputError(`cannot read the violated invariant from "${inv.body.slice(0, 100)}"`);
    violated = m[1];
    violationKind = 'invariant';
  }
  const prop = first(EC.ACTION_PROPERTY_VIOLATED_BEHAVIOR) ?? first(EC.PROPERTY_VIOLATED_INITIAL) ?? first(EC.TEMPORAL_PROPERTY_VIOLATED);
  if (!violated && prop) {
    // "Temporal property Reaches3 was violated." (2116), "Action property P is violated." (2112),
    // "Property P is violated by the initial state" (2108), "Temporal properties A, B, and C were
    // violated." (several; tlc2/output/MP.java).
    const several = /Temporal properties (.+?) were violated/.exec(prop.body);
    const names = several
      ? several[1]!
          .split(/,\s*(?:and\s+)?|\s+and\s+/)
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
    violated = names.length > 0 ? names.join(', ') : (/[Pp]roperty (\S+?)\.? (?:is|was) violated/.exec(prop.body)?.[1] ?? 'temporal property');
    violationKind = prop.code === EC.ACTION_PROPERTY_VIOLATED_BEHAVIOR ? 'action-property' : 'temporal-property';
  }

  const sany = parseSanyDiagnostics(stray);
  const traceCodes = new Set<number>([EC.STATE_PRINT2, EC.STATE_PRINT3, EC.BACK_TO_STATE]);
  const trace: TlcTraceStep[] = [];
  const unreadable: UnreadableTraceValue[] = [];
  let loop: TlcLoop | undefined;
  let laterTraces = 0;
  for (const m of messages.filter((x) => traceCodes.has(x.code))) {
    // With `-continue` TLC prints one trace per violation, each numbered from 1: the first is kept.
    if (laterTraces > 0 || (loop !== undefined && m.code !== EC.BACK_TO_STATE && m.code !== EC.STATE_PRINT3)) {
      if (/^1: /.test(m.body)) laterTraces++;
      continue;
    }
    const r = parseTraceMessage(m);
    if ('loop' in r) loop = r.loop;
    else if (trace.length > 0 && r.step.index <= trace[trace.length - 1]!.index) {
      laterTraces++;
    } else {
      trace.push(r.step);
      unreadable.push(...r.unreadable.map((u) => ({ step: r.step.index, ...u })));
    }
  }
  const errorCodes = new Set<number>([EC.BEHAVIOR_UP_TO_THIS_POINT, EC.COUNTER_EXAMPLE, ...traceCodes]);
  // A config-file message may be severity 0 inside an error (the .cfg syntax error in message 1000);
  // one of severity 3 is a warning (2259, "no fairness but a liveness property", beside a real
  // liveness violation): never a config error.
  const configError = (m: TlcMessage) => isConfigErrorCode(m.code) && m.severity !== SEVERITY_WARNING;
  const errors = messages
    .filter((m) => ((m.severity >= 1 && m.severity <= 2) || configError(m)) && !errorCodes.has(m.code))
    .map((m) => m.body.trim())
    .filter(Boolean);

  let outcome: TlcOutcome;
  if (has(EC.PARSING_FAILED) || has(EC.PARSING_FAILED2) || (sany.length > 0 && !has(EC.STARTING))) outcome = 'parse-error';
  else if (messages.some(configError)) outcome = 'config-error';
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
    ...(violationKind !== undefined && { violationKind }),
    trace,
    ...(loop && { loop }),
    ...(unreadable.length > 0 && { unreadable }),
    ...(laterTraces > 0 && { laterTraces }),
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

type ParsedTraceMessage = { readonly step: TlcTraceStep; readonly unreadable: readonly { variable: string; message: string }[] } | { readonly loop: TlcLoop };

function parseTraceMessage(m: TlcMessage): ParsedTraceMessage {
  const [head = '', ...rest] = m.body.split('\n');
  if (m.code === EC.STATE_PRINT3) {
    // "2: Stuttering": the behaviour stays in state N-1 forever.
    const idx = /^(\d+):/.exec(head);
    return { loop: { kind: 'stuttering', toIndex: idx ? Number(idx[1]) - 1 : 0 } };
  }
  if (m.code === EC.BACK_TO_STATE) {
    // "1: Back to state: <Step(1) line …>": the closing step goes back to state 1.
    const b = /^(\d+): Back to state(?:: <(.*?)(?: line \d+, col \d+ to line \d+, col \d+ of module \S+)?>)?\s*$/.exec(head.trim());
    if (!b) throw new TlcOutputError(`cannot read the lasso's back-loop "${head.slice(0, 120)}"`);
    const { action, args } = b[2] !== undefined ? parseActionLabel(b[2].trim()) : { action: 'Next', args: [] };
    return { loop: { kind: 'back-to-state', toIndex: Number(b[1]), action, args } };
  }
  const l = LABEL.exec(head.trim());
  if (!l) throw new TlcOutputError(`cannot read the trace step label "${head.slice(0, 120)}"`);
  const { action, args } = parseActionLabel(l[2]!.trim());
  const { vars, unreadable } = readTlaState(rest.join('\n'));
  return { step: { index: Number(l[1]), action, args, vars }, unreadable };
}

/** `AcquireB(p1)` → AcquireB and ['p1'] (TLC's trace labels; also the twins' labels, which print the same). */
export function parseActionLabel(label: string): { action: string; args: string[] } {
  if (label === 'Initial predicate') return { action: 'Init', args: [] };
  const a = /^([A-Za-z_][A-Za-z0-9_!]*)(?:\((.*)\))?$/.exec(label);
  if (!a) throw new TlcOutputError(`cannot read the action in trace label "${label}"`);
  return { action: a[1]!, args: a[2] ? splitArgs(a[2]) : [] };
}

/** Splits `p1, "x", [a |-> 1, b |-> 2]` at top-level commas (the `>` of `|->` and `:>` closes nothing). */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  let inStr = false;
  let prev = '';
  for (const c of s) {
    if (inStr) {
      cur += c;
      if (c === '"' && prev !== '\\') inStr = false;
      prev = prev === '\\' ? '' : c;
      continue;
    }
    const arrow = c === '>' && (prev === '-' || prev === ':');
    prev = c;
    if (c === '"') inStr = true;
    if ('([{<'.includes(c)) depth++;
    if (')]}>'.includes(c) && !arrow) depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/**
 * SANY's diagnostics (unframed lines), each with its whole text: a parse error (its "Was expecting"
 * and "Encountered … at line L, column C" lines, and where the construct began: the first line of
 * the residual stack trace), each semantic error ("line L, col C to … of module M" and every line of
 * its message, up to the next one), and an error without a position ("Cannot find source file for
 * module X imported in module Y.", under "In module Y").
 */
export function parseSanyDiagnostics(stray: readonly string[]): SanyDiagnostic[] {
  const out: SanyDiagnostic[] = [];
  const text = stray.join('\n');
  const lines = stray.map((l) => l.trim());
  if (/\*\*\*Parse Error\*\*\*|Lexical error/.test(text)) {
    const file = /Could not parse module \S+ from file (\S+)/.exec(text)?.[1] ?? /Fatal errors while parsing TLA\+ spec in file (\S+)/.exec(text)?.[1] ?? 'unknown';
    const pos = /(?:Encountered|Lexical error)[^\n]*?at line (\d+), column (\d+)/.exec(text);
    const start = lines.findIndex((l) => /\*\*\*Parse Error\*\*\*/.test(l));
    const residual = lines.findIndex((l, k) => k > start && /^Residual stack trace follows:/.test(l));
    const body = start >= 0 ? lines.slice(start + 1, residual > start ? residual : undefined).filter((l) => l !== '' && !/^(Fatal errors|In module|Could not parse)/.test(l)) : [];
    if (body.length === 0) {
      const lexical = /(Lexical error[^\n]*)/.exec(text)?.[1];
      if (lexical) body.push(lexical.trim());
    }
    const where = residual >= 0 ? lines.slice(residual + 1).find((l) => l !== '') : undefined;
    out.push({
      file: file.endsWith('.tla') ? file : `${file}.tla`,
      line: pos ? Number(pos[1]) : 0,
      column: pos ? Number(pos[2]) : 0,
      message: `${body.join(' ') || 'parse error'}${where ? ` (${where.replace(/\.$/, '')})` : ''}`,
    });
    return out;
  }
  // Semantic errors follow "*** Errors: N" (warnings, after "*** Warnings", use the same layout).
  const from = lines.findIndex((l) => /^\*\*\* Errors: \d+/.test(l));
  const header = /^line (\d+), col (\d+) to line \d+, col \d+ of module (\S+)$/;
  const ends = (l: string) => header.test(l) || /^(SANY finished|\*\*\* |Semantic errors:|In module \S+$|Starting\.\.\.|Parsing or semantic analysis failed)/.test(l);
  let module: string | undefined;
  for (let i = from < 0 ? lines.length : from + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\*\*\* Warnings/.test(l) || /^SANY finished/.test(l)) break;
    const inModule = /^In module (\S+)$/.exec(l);
    if (inModule) {
      module = inModule[1];
      continue;
    }
    const m = header.exec(l);
    // A message's lines: after its header (or its "In module"), up to the next header, marker or a blank line after text.
    const message: string[] = [];
    let j = i + 1;
    if (!m) {
      if (l === '') continue;
      j = i;
    }
    for (; j < lines.length && !ends(lines[j]!); j++) {
      if (lines[j] === '') {
        if (message.length > 0) break;
        continue;
      }
      message.push(lines[j]!);
    }
    if (message.length === 0) continue;
    out.push(
      m
        ? { file: `${m[3]}.tla`, line: Number(m[1]), column: Number(m[2]), message: message.join(' ') }
        : { file: module ? `${module}.tla` : 'unknown', line: 0, column: 0, message: message.join(' ') },
    );
    i = j - 1;
  }
  if (out.length === 0) {
    // A failure SANY reports without "*** Errors" (e.g. a file name that does not match): keep its words.
    const msg = /(Cannot find source file for module [^\n]*|File name '[^']*' does not match[^\n]*|Could not parse module[^\n]*)/.exec(text);
    const inModule = /In module (\S+)\s*\n[^\n]*Cannot find source file/.exec(text)?.[1];
    if (msg) out.push({ file: inModule ? `${inModule}.tla` : 'unknown', line: 0, column: 0, message: msg[1]!.trim() });
  }
  return out;
}
