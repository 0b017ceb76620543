/**
 * The trace-validation module of one batch of observed traces of one system (Cirstea, Kuppe, Merz
 * et al., "Validating Traces of Distributed Programs Against TLA+ Specifications", 2024): a module
 * that EXTENDS the system's spec, holds the traces as a constant `FC_Log` (a tuple of tuples of
 * lines), and whose behaviours are the spec's behaviours that match a log line by line:
 *
 *   FC_Init  picks a trace `fc_t` (every trace of the batch in one TLC run), starts at line 1 with
 *            the spec's Init, every variable the first line observed equal to its value;
 *   FC_Next  takes one of the line's claimed actions (the spec's own operator with the logged
 *            arguments; an unobserved argument is any value of its domain; `stutter`: nothing
 *            changes; no claim: any step of Next), every variable and view the next line observed
 *            equal to its value (unobserved ones are left to the spec), and moves to that line;
 *            or one of the system's silent actions, on the same line.
 *
 * Each explained line prints `<<"fc", trace, line>>` (TLC's PrintT, evaluated after every
 * constraint of the step, so only for real successors): the highest line printed per trace is how
 * far TLC explained it. The config is the base config's constants (the trace's overrides applied,
 * the mutation constant kept at {}) with the model values the traces name, and nothing else.
 *
 * The diagnosis variant (`stops`) replays each rejected trace up to its last explained line and
 * there takes the line's claims without the observations, printing each successor with, per
 * observed variable and view, whether it matches: what the spec allows at that step. It also
 * tries every action of Next with the observations, to say whether another action explains it.
 */
import { formatTlaValue, type TlaSourceText, type TlaValue } from '../../core/tla-value.js';
import { claimsOf, modelValuesOf, ObservedTraceError, readValue, type ClaimArg, type ObservedTrace } from './format.js';
import { MUTATION_CONSTANT, type SpecFacts, type TraceTarget } from './target.js';

export const TRACE_MODULE = 'FC_TraceCheck';

const AS_SOURCE: TlaSourceText = {
  unreadable: (text) => {
    throw new ObservedTraceError(`unreadable value ${text.slice(0, 40)}`);
  },
};

/** TLA+ text of a value the module can hold (an empty function is `<<>>`, integers may be negative: Integers is extended). */
export function tlaText(v: TlaValue): string {
  return formatTlaValue(v, AS_SOURCE);
}

/** A claim's shape: which action, and per argument whether it is given or drawn (from which domain, with which predicate). */
interface ClaimForm {
  readonly key: string;
  /** 0: stutter, -1: any action of Next, else the form's index. */
  readonly k: number;
  readonly code: string;
}

export interface TraceModule {
  readonly text: string;
  readonly cfg: string;
  /** The 1-based lines of each trace (its steps, in order). */
  readonly lengths: readonly number[];
  /** Per form index (k ≥ 1), the claim's name, for reports. */
  readonly formNames: ReadonlyMap<number, string>;
}

export interface ModuleOptions {
  /** Diagnosis: per trace of the batch, the last line TLC explained (0: not even the first). */
  readonly stops?: readonly number[];
}

const STUTTER = 0;
const ANY = -1;

/** Builds the module and config for traces that share a system and constants. */
export function traceModule(target: TraceTarget, facts: SpecFacts, traces: readonly ObservedTrace[], opts: ModuleOptions = {}): TraceModule {
  if (traces.length === 0) throw new RangeError('traceModule: no traces');
  const overrides = traces[0]!.constants ?? {};
  const clash = [...facts.names].find((n) => /^(FC_|fc_)/.test(n));
  if (clash) throw new ObservedTraceError(`${target.spec}: the name ${clash} clashes with the trace module's own (FC_/fc_ prefix)`);
  if (MUTATION_CONSTANT in overrides) throw new ObservedTraceError(`a trace sets ${MUTATION_CONSTANT}: traces are judged against the real spec (${MUTATION_CONSTANT} = {})`);
  const dropped = facts.constants.get(MUTATION_CONSTANT);
  if (dropped && dropped.value.replace(/\s/g, '') !== '{}')
    throw new ObservedTraceError(`${target.config}: ${MUTATION_CONSTANT} = ${dropped.value}: the base config must be the real spec (${MUTATION_CONSTANT} = {})`);
  for (const name of Object.keys(overrides)) if (!facts.constants.has(name)) throw new ObservedTraceError(`constant ${name} is not set by ${target.config}`);

  const vars = target.variables;
  const varSet = new Set(vars);
  const modelValues = new Set(facts.modelValues);
  for (const value of Object.values(overrides))
    for (const id of value.replace(/"[^"]*"/g, '').match(/[A-Za-z_]\w*/g) ?? []) if (!['TRUE', 'FALSE'].includes(id) && !facts.names.has(id)) modelValues.add(id);

  const forms = new Map<string, ClaimForm>();
  const formNames = new Map<number, string>();
  const views = new Map<string, number>();
  const viewOf = (expr: string) => {
    let k = views.get(expr);
    if (k === undefined) views.set(expr, (k = views.size + 1));
    return k;
  };
  const domainOf = (action: string, i: number, arg: ClaimArg, where: string): string => {
    const given = arg !== null && typeof arg === 'object' ? arg.in : undefined;
    const d = given ?? target.domains?.[action]?.[i] ?? null;
    if (d === null) throw new ObservedTraceError(`${where}: argument ${i + 1} of ${action} is unobserved and ${target.system} names no domain for it`);
    return d;
  };
  const formOf = (name: string, args: readonly ClaimArg[], where: string): { k: number; values: TlaValue[] } => {
    const values: TlaValue[] = [];
    const parts: string[] = [];
    const binders: string[] = [];
    const keyParts: string[] = [];
    args.forEach((a, i) => {
      if (typeof a === 'string') {
        const v = readValue(a, `${where} argument ${i + 1}`);
        modelValuesOf(v, modelValues);
        values.push(v);
        parts.push(`fc_c.a[${values.length}]`);
        keyParts.push('v');
      } else {
        const x = `fc_x${i + 1}`;
        const dom = domainOf(name, i, a, where);
        const such = a !== null && typeof a === 'object' ? a.such : undefined;
        binders.push(`\\E ${x} \\in (${dom}) : ${such ? `(LET fc_arg == ${x} IN (${such})) /\\ ` : ''}`);
        parts.push(x);
        keyParts.push(`d[${dom}]${such ? `[${such}]` : ''}`);
      }
    });
    const key = `${name}(${keyParts.join(',')})`;
    let f = forms.get(key);
    if (!f) {
      const call = parts.length > 0 ? `${name}(${parts.join(', ')})` : name;
      f = { key, k: forms.size + 1, code: `${binders.join('')}${call}` };
      forms.set(key, f);
      formNames.set(f.k, name);
    }
    return { k: f.k, values };
  };

  const logs: string[] = [];
  const lengths: number[] = [];
  for (const [ti, t] of traces.entries()) {
    if (JSON.stringify(t.constants ?? {}) !== JSON.stringify(overrides)) throw new RangeError('traceModule: a batch shares its constants');
    const lines: string[] = [];
    for (const [si, step] of t.steps.entries()) {
      const where = `${t.id ?? t.source} step ${si}`;
      const o: string[] = [];
      for (const [v, text] of Object.entries(step.vars ?? {})) {
        if (text === null || text === undefined) continue;
        if (!varSet.has(v)) throw new ObservedTraceError(`${where}: ${v} is not a variable of ${target.spec} (${vars.join(', ')})`);
        const value = readValue(text, `${where} variable ${v}`);
        modelValuesOf(value, modelValues);
        o.push(`v_${v} |-> ${tlaText(value)}`);
      }
      const w: string[] = [];
      for (const [expr, text] of Object.entries(step.views ?? {})) {
        const value = readValue(text, `${where} view ${expr}`);
        modelValuesOf(value, modelValues);
        w.push(`[k |-> ${viewOf(expr)}, v |-> ${tlaText(value)}]`);
      }
      const c: string[] = [];
      if (si > 0) {
        const claims = claimsOf(step);
        if (claims === undefined) c.push(`[k |-> ${ANY}, a |-> <<>>]`);
        else
          for (const [ci, claim] of claims.entries()) {
            const { k, values } = formOf(claim.name, claim.args ?? [], `${where} action ${ci + 1}`);
            c.push(`[k |-> ${k}, a |-> <<${values.map(tlaText).join(', ')}>>]`);
          }
        if (step.stutter) c.push(`[k |-> ${STUTTER}, a |-> <<>>]`);
        if (c.length === 0) throw new ObservedTraceError(`${where}: claims no action and no stutter: no step can explain it`);
      }
      lines.push(`[o |-> ${o.length > 0 ? `[${o.join(', ')}]` : '<<>>'}, w |-> <<${w.join(', ')}>>, c |-> {${c.join(', ')}}]`);
    }
    lengths.push(lines.length);
    logs.push(`  \\* ${ti + 1}: ${(t.id ?? t.source).replace(/[\n\r]/g, ' ')}\n  <<${lines.join(',\n    ')}>>`);
  }

  for (const mv of modelValues) {
    if (facts.names.has(mv)) {
      const c = facts.constants.get(mv);
      if (c?.op !== '=' || c.value !== mv) throw new ObservedTraceError(`model value ${mv} is also a name of ${target.spec}`);
    }
  }
  const declared = [...modelValues].filter((mv) => !facts.names.has(mv)).sort();
  const tuple = `<<${vars.join(', ')}>>`;
  const matchNow = vars.map((v) => `    /\\ ("v_${v}" \\in DOMAIN fc_line.o => ${v} = fc_line.o.v_${v})`);
  const matchNext = vars.map((v) => `    /\\ ("v_${v}" \\in DOMAIN fc_line.o => ${v}' = fc_line.o.v_${v})`);
  const agree = (primed: boolean) => `<<${vars.map((v) => `("v_${v}" \\in DOMAIN fc_line.o => ${v}${primed ? "'" : ''} = fc_line.o.v_${v})`).join(', ')}>>`;
  const vals = (primed: boolean) => `<<${vars.map((v) => `${v}${primed ? "'" : ''}`).join(', ')}>>`;
  const viewArms = [...views.entries()].map(([expr, k]) => `    [] k = ${k} -> (${expr})`);
  const formArms = [...forms.values()].map((f) => `    \\/ fc_c.k = ${f.k} /\\ ${f.code}`);
  const silent = target.silent ?? [];
  const diag = opts.stops;
  if (diag && diag.length !== traces.length) throw new RangeError('traceModule: one stop per trace');

  const text = [
    `---- MODULE ${TRACE_MODULE} ----`,
    `EXTENDS ${facts.module}, Integers, Sequences, TLC`,
    ...(declared.length > 0 ? [`CONSTANTS ${declared.join(', ')}`] : []),
    'VARIABLES fc_t, fc_l',
    '',
    `FC_Log == <<\n${logs.join(',\n')}\n  >>`,
    '',
    `FC_ViewAt(k) == CASE k = 0 -> TRUE\n${viewArms.join('\n')}`,
    "FC_PrimedView(k) == (FC_ViewAt(k))'",
    'FC_Range(s) == {s[i] : i \\in DOMAIN s}',
    '',
    'FC_MatchNow(fc_line) ==',
    ...matchNow,
    '    /\\ \\A fc_w \\in FC_Range(fc_line.w) : FC_ViewAt(fc_w.k) = fc_w.v',
    'FC_MatchNext(fc_line) ==',
    ...matchNext,
    '    /\\ \\A fc_w \\in FC_Range(fc_line.w) : FC_PrimedView(fc_w.k) = fc_w.v',
    '',
    'FC_Form(fc_c) ==',
    `    \\/ fc_c.k = ${STUTTER} /\\ UNCHANGED ${tuple}`,
    `    \\/ fc_c.k = ${ANY} /\\ ${facts.next}`,
    ...formArms,
    '',
    `FC_Silent == ${silent.length > 0 ? silent.map((s) => `(${s})`).join(' \\/ ') : 'FALSE'}`,
    '',
    '\\* One logged step: a claimed action of the next line, matching what it observed.',
    'FC_Logged == \\E fc_line \\in {FC_Log[fc_t][fc_l + 1]} :',
    '    /\\ \\E fc_c \\in fc_line.c : FC_Form(fc_c)',
    '    /\\ FC_MatchNext(fc_line)',
    '',
    ...(diag
      ? [
          `FC_Stop == <<${diag.join(', ')}>>`,
          '',
          "\\* Diagnosis: each trace up to its last explained line; there, the line's claims without its observations.",
          'FC_Init ==',
          `    /\\ fc_t \\in 1..Len(FC_Log)`,
          `    /\\ ${facts.init}`,
          '    /\\ \\E fc_line \\in {FC_Log[fc_t][1]} :',
          '        \\/ FC_Stop[fc_t] >= 1 /\\ fc_l = 1 /\\ FC_MatchNow(fc_line)',
          `        \\/ FC_Stop[fc_t] = 0 /\\ fc_l = -1 /\\ PrintT(<<"fcd", fc_t, "init", 0, ${agree(false)}, ${vals(false)}, [fc_i \\in DOMAIN fc_line.w |-> FC_ViewAt(fc_line.w[fc_i].k) = fc_line.w[fc_i].v], [fc_i \\in DOMAIN fc_line.w |-> FC_ViewAt(fc_line.w[fc_i].k)]>>)`,
          'FC_Next ==',
          '    \\/ /\\ fc_l >= 1 /\\ fc_l < FC_Stop[fc_t] /\\ FC_Logged',
          "       /\\ fc_l' = fc_l + 1 /\\ fc_t' = fc_t",
          '    \\/ /\\ fc_l >= 1 /\\ FC_Silent /\\ UNCHANGED <<fc_t, fc_l>>',
          '    \\/ /\\ fc_l >= 1 /\\ fc_l = FC_Stop[fc_t]',
          '       /\\ \\E fc_line \\in {FC_Log[fc_t][fc_l + 1]} : \\E fc_c \\in fc_line.c :',
          '            /\\ FC_Form(fc_c)',
          `            /\\ PrintT(<<"fcd", fc_t, "claimed", fc_c.k, ${agree(true)}, ${vals(true)}, [fc_i \\in DOMAIN fc_line.w |-> FC_PrimedView(fc_line.w[fc_i].k) = fc_line.w[fc_i].v], [fc_i \\in DOMAIN fc_line.w |-> FC_PrimedView(fc_line.w[fc_i].k)]>>)`,
          "       /\\ fc_l' = -1 /\\ fc_t' = fc_t",
          '    \\/ /\\ fc_l >= 1 /\\ fc_l = FC_Stop[fc_t]',
          '       /\\ \\E fc_line \\in {FC_Log[fc_t][fc_l + 1]} :',
          `            /\\ ${facts.next}`,
          '            /\\ FC_MatchNext(fc_line)',
          `            /\\ PrintT(<<"fcd", fc_t, "other", 0, ${agree(true)}, ${vals(true)}, <<>>, <<>>>>)`,
          "       /\\ fc_l' = -2 /\\ fc_t' = fc_t",
        ]
      : [
          'FC_Init ==',
          `    /\\ fc_t \\in 1..Len(FC_Log) /\\ fc_l = 1`,
          `    /\\ ${facts.init}`,
          '    /\\ FC_MatchNow(FC_Log[fc_t][1])',
          '    /\\ PrintT(<<"fc", fc_t, 1>>)',
          'FC_Next ==',
          '    \\/ /\\ fc_l < Len(FC_Log[fc_t]) /\\ FC_Logged',
          "       /\\ fc_l' = fc_l + 1 /\\ fc_t' = fc_t",
          '       /\\ PrintT(<<"fc", fc_t, fc_l + 1>>)',
          '    \\/ /\\ FC_Silent /\\ UNCHANGED <<fc_t, fc_l>>',
        ]),
    '',
    `FC_Spec == FC_Init /\\ [][FC_Next]_<<fc_t, fc_l, ${vars.join(', ')}>>`,
    '====',
    '',
  ].join('\n');

  const constantLines = [...facts.constants.entries()].map(([name, c]) => `    ${name} ${c.op} ${overrides[name] ?? c.value}`);
  const cfg = ['CONSTANTS', ...constantLines, ...declared.map((mv) => `    ${mv} = ${mv}`), 'SPECIFICATION FC_Spec', ''].join('\n');
  return { text, cfg, lengths, formNames };
}
