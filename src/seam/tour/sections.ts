/**
 * What a tour hands the verify reports (src/core/report-details.ts), whatever the system: the
 * Conformance section — the tour's coverage of the model (states, transitions, refused attempts:
 * executed / model total and %), its figures, the per-action table and the first mismatch with its
 * trace and the command that replays it — and the JUnit suite `conform`: one case for the tour, one
 * per action or attempt kind. Built from the tour's figures (conformFigures), the ones the command prints.
 */
import { formatDuration } from '../../core/format.js';
import { coveragePercent, figureText } from '../../core/percent.js';
import type { ReportBlock, ReportCase, ReportCell, ReportSection, ReportSuite } from '../../core/report-details.js';
import type { TourCheckMode as TourChecks, TourResult } from './result.js';

/** The tour's figures as its StageReport carries them (JSON: the failure's path as its length). */
export interface ConformFigures {
  readonly system: string;
  /** The constants the tour ran at, in one line. */
  readonly bounds: string;
  readonly checks: TourChecks;
  /** Real states reached (more than the model's when a mutated script leaves its graph), attempts made. */
  readonly states: number;
  readonly attempts: number;
  readonly depth: number;
  readonly durationMs: number;
  readonly model: { readonly states: number; readonly transitions: number; readonly refused: number };
  readonly covered: { readonly states: number; readonly transitions: number; readonly refused: number };
  readonly byAction: Readonly<Record<string, { readonly transitions: number; readonly modelTransitions: number; readonly refused: number; readonly modelRefused: number }>>;
  readonly equalToModel: boolean | null;
  readonly failure: ConformFailure | null;
}

/** The first (state, attempt) where the real system and the model parted, or the first state breaking a check. */
export interface ConformFailure {
  /** `Conformance`, `TTL`, `ReadSide`, `T3_SlotBreach`, `Observation`, or an invariant name. */
  readonly check: string;
  readonly message: string;
  /** The attempt (`acquire(p1)`, `renew(p2@3)`, `AdvanceTarget`), what the real system did, what the model predicts. */
  readonly attempt?: string;
  readonly real?: string;
  readonly predicted?: string;
  /** Steps from Init to the failing state or attempt. */
  readonly steps: number;
}

export interface ConformOutcome {
  /** The stage's verdict: the real graph is the model's (or the invariant checked alone held). */
  readonly passed: boolean;
  /** The stage's one line, and why it failed. */
  readonly summary: string;
  readonly reason?: string;
  /** The saved first-mismatch trace and the one command that replays it. */
  readonly tracePath?: string;
  readonly replay?: string;
}

export const CONFORM_INTRO =
  "The exhaustive conformance tour (fencecheck conform): in every state of the model's graph, every transition the model enables and every attempt it refuses runs on the real code, and the real state read back is compared with the model's prediction.";

const SECTION_ID = 'conformance';
const SUITE = 'conform';
export const CONFORM_TOUR_CASE = 'conformance tour';

export function conformFigures(r: TourResult<unknown, unknown, unknown>): ConformFigures {
  const { failure } = r;
  return {
    system: r.system,
    bounds: r.boundsLabel,
    checks: r.checks,
    states: r.states,
    attempts: r.attempts,
    depth: r.depth,
    durationMs: r.durationMs,
    model: { states: r.model.states, transitions: r.model.transitions, refused: r.model.refused },
    covered: r.covered,
    byAction: r.byAction,
    equalToModel: r.equalToModel,
    failure: failure
      ? {
          check: failure.check,
          message: failure.message,
          ...(failure.attempt !== undefined ? { attempt: failure.attempt } : {}),
          ...(failure.real !== undefined ? { real: failure.real } : {}),
          ...(failure.predicted !== undefined ? { predicted: failure.predicted } : {}),
          // The path holds Init and every step after it.
          steps: failure.path.length - 1,
        }
      : null,
  };
}

interface ActionRow {
  readonly action: string;
  readonly transitions: readonly [number, number];
  readonly refused: readonly [number, number];
  readonly percent: number;
  readonly complete: boolean;
  readonly mismatch: boolean;
}

/** The byAction row an attempt label belongs to: `acquire(p1)` → `acquire`, `renew(p2@3)` → `renew`, `AdvanceTarget` stays. */
export function attemptRow(attempt: string): string {
  return attempt.replace(/\(.*$/, '').trim();
}

function actionRows(f: ConformFigures): ActionRow[] {
  const mismatchRow = f.failure?.attempt !== undefined ? attemptRow(f.failure.attempt) : undefined;
  return Object.entries(f.byAction)
    .map(
      ([action, c]): ActionRow => ({
        action,
        transitions: [c.transitions, c.modelTransitions],
        refused: [c.refused, c.modelRefused],
        percent: coveragePercent(Math.min(c.transitions, c.modelTransitions) + Math.min(c.refused, c.modelRefused), c.modelTransitions + c.modelRefused),
        complete: c.transitions >= c.modelTransitions && c.refused >= c.modelRefused,
        mismatch: action === mismatchRow,
      }),
    )
    .sort((a, b) => a.action.localeCompare(b.action));
}

/** An action row's figures in words, leaving out what the model has none of: `transitions 3 / 624 (0.5 %)`. */
export function actionFiguresText(row: Pick<ActionRow, 'transitions' | 'refused'>): string {
  const [t, mt] = row.transitions;
  const [r, mr] = row.refused;
  const parts = [...(mt > 0 || t > 0 ? [`transitions ${figureText(t, mt)}`] : []), ...(mr > 0 || r > 0 ? [`refused attempts ${figureText(r, mr)}`] : [])];
  return parts.join(', ') || 'nothing in the model';
}

function figureCell([executed, model]: readonly [number, number]): ReportCell {
  if (model === 0 && executed === 0) return { text: '—', tone: 'muted', title: 'the model has none' };
  return { text: figureText(executed, model), tone: executed >= model ? 'ok' : 'bad' };
}

const checksShort = (c: TourChecks) => (c.kind === 'conformance' ? 'conformance' : `${c.invariant} alone`);

/** Lines describing the first mismatch: what, where, real against model, the trace and its replay command. */
function failureLines(f: ConformFigures, o: ConformOutcome): string[] {
  const x = f.failure;
  if (!x) return o.passed ? [] : [o.reason ?? o.summary];
  return [
    `${x.check}: ${x.message}`,
    ...(x.attempt !== undefined ? [`attempt: ${x.attempt}`] : []),
    ...(x.real !== undefined ? [`real:    ${x.real}`] : []),
    ...(x.predicted !== undefined ? [`model:   ${x.predicted}`] : []),
    `path: ${x.steps} steps from Init`,
    ...(o.tracePath !== undefined ? [`trace: ${o.tracePath}`] : []),
    ...(o.replay !== undefined ? [`replay: ${o.replay}`] : []),
  ];
}

export function conformSection(f: ConformFigures, o: ConformOutcome): ReportSection {
  const c = f.covered;
  const blocks: ReportBlock[] = [
    {
      kind: 'coverage',
      id: 'conform-coverage',
      label: 'coverage',
      rows: [
        { name: 'states', executed: c.states, model: f.model.states },
        { name: 'transitions', executed: c.transitions, model: f.model.transitions },
        { name: 'refused attempts', executed: c.refused, model: f.model.refused },
      ],
    },
    {
      kind: 'kv',
      rows: [
        ['system', f.system],
        ['checks', f.checks.kind === 'conformance' ? "full conformance: every decision and successor, every invariant, the system's own state and step checks" : checksShort(f.checks)],
        ['bounds', f.bounds],
        ['real states reached', `${f.states}${f.states > c.states ? ` (${f.states - c.states} the model never reaches)` : ''}`],
        ['attempts executed', String(f.attempts)],
        ['depth', String(f.depth)],
        ['tour time', formatDuration(Math.round(f.durationMs))],
        ["real graph = model's", f.equalToModel === null ? 'unknown (the tour stopped at the first failure)' : f.equalToModel ? 'yes' : 'no'],
      ],
    },
  ];
  const actions = actionRows(f);
  if (actions.length > 0) {
    // The mismatch column only when a conformance mismatch names an attempt (an invariant alone names a state).
    const marked = actions.some((a) => a.mismatch);
    blocks.push(
      { kind: 'heading', text: 'Per action' },
      {
        kind: 'p',
        text: "Transitions: the model's labelled transitions of the action the tour executed. Refused attempts: attempts of this kind (or gate step) the model refuses, executed and refused by the real system too.",
      },
      {
        kind: 'table',
        id: 'conform-actions',
        nowrap: true,
        columns: ['action or attempt', 'transitions', 'refused attempts', 'coverage', ...(marked ? ['first mismatch'] : [])],
        rows: actions.map((a) => [
          { text: a.action },
          figureCell(a.transitions),
          figureCell(a.refused),
          { text: `${a.percent.toFixed(1)} %`, tone: a.complete ? 'ok' : 'bad' },
          ...(marked ? [a.mismatch ? ({ text: f.failure?.attempt ?? 'here', tone: 'bad' } as ReportCell) : { text: '' }] : []),
        ]),
      },
    );
  }
  const x = f.failure;
  if (x || !o.passed) {
    blocks.push({ kind: 'heading', text: 'First mismatch' }, { kind: 'p', text: x ? `${x.check}: ${x.message}` : (o.reason ?? o.summary), tone: 'bad' });
    const rows: [string, string][] = [];
    if (x?.attempt !== undefined) rows.push(['attempt', x.attempt]);
    if (x?.real !== undefined) rows.push(['real system', x.real]);
    if (x?.predicted !== undefined) rows.push(['model predicts', x.predicted]);
    if (x) rows.push(['path', `${x.steps} steps from Init`]);
    if (o.tracePath !== undefined) rows.push(['trace', o.tracePath]);
    if (rows.length > 0) blocks.push({ kind: 'kv', rows });
    if (o.replay !== undefined) blocks.push({ kind: 'p', text: 'Replay it on the real system, step by step against the model:' }, { kind: 'code', text: o.replay });
    if (o.tracePath !== undefined) blocks.push({ kind: 'trace', path: o.tracePath, ...(o.replay !== undefined ? { replay: o.replay } : {}) });
  }
  return { id: SECTION_ID, title: 'Conformance', intro: CONFORM_INTRO, blocks };
}

/**
 * One case for the tour (the stage's verdict, and full coverage of the model's states, transitions
 * and refused attempts), then one per action or attempt kind: it passes when every model transition
 * and refused attempt of it was executed, and fails otherwise or when the first mismatch was an
 * attempt of it. Failures carry the first mismatch and its replay command.
 */
export function conformSuite(f: ConformFigures, o: ConformOutcome): ReportSuite {
  const c = f.covered;
  const mismatch = failureLines(f, o).join('\n');
  const coverageText = [
    `states ${figureText(c.states, f.model.states)}`,
    `transitions ${figureText(c.transitions, f.model.transitions)}`,
    `refused attempts ${figureText(c.refused, f.model.refused)}`,
  ];
  const short = c.states < f.model.states || c.transitions < f.model.transitions || c.refused < f.model.refused;
  const x = f.failure;
  const out = [o.summary, `checks: ${checksShort(f.checks)}`, ...coverageText, `attempts: ${f.attempts}`].join('\n');
  const tour: ReportCase =
    o.passed && !short
      ? { name: CONFORM_TOUR_CASE, status: 'passed', seconds: f.durationMs / 1000, out }
      : {
          name: CONFORM_TOUR_CASE,
          status: 'failed',
          seconds: f.durationMs / 1000,
          message: o.passed ? `the stage passed but the tour executed only ${coverageText.join(', ')}` : x ? `${x.check}: ${x.message}` : (o.reason ?? o.summary),
          body: [mismatch, `coverage: ${coverageText.join(', ')}`].filter(Boolean).join('\n'),
          out,
        };
  const actions = actionRows(f).map((row): ReportCase => {
    const figures = actionFiguresText(row);
    if (row.mismatch)
      return {
        name: row.action,
        status: 'failed',
        message: `first mismatch at ${x?.attempt ?? row.action}: ${x?.check ?? ''}: ${x?.message ?? ''}`,
        body: [mismatch, figures].filter(Boolean).join('\n'),
        out: figures,
      };
    if (row.complete) return { name: row.action, status: 'passed', out: figures };
    return {
      name: row.action,
      status: 'failed',
      message: `${row.action}: executed ${row.percent.toFixed(1)} % of the model (${figures})${x ? `; the tour stopped at ${x.check}` : ''}`,
      body: [mismatch, figures].filter(Boolean).join('\n'),
      out: figures,
    };
  });
  return { name: SUITE, cases: [tour, ...actions] };
}

/** The section and suite of a tour that ran. */
export function conformReportDetails(f: ConformFigures, o: ConformOutcome): { sections: ReportSection[]; suites: ReportSuite[] } {
  return { sections: [conformSection(f, o)], suites: [conformSuite(f, o)] };
}

/** The section and suite of a tour that could not run: its reason, no figures. */
export function conformNotRunDetails(reason: string): { sections: ReportSection[]; suites: ReportSuite[] } {
  return {
    sections: [{ id: SECTION_ID, title: 'Conformance', intro: CONFORM_INTRO, blocks: [] }],
    suites: [{ name: SUITE, cases: [{ name: CONFORM_TOUR_CASE, status: 'not-run', message: `not run: ${reason}` }] }],
  };
}
