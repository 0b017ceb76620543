/**
 * The Conformance section's blocks: the tour's coverage of the model (states, transitions, refused
 * attempts: executed / model total and %), its per-action table, and the first mismatch with its
 * trace and the command that replays it. Read from the ConformSummary (conform-summary.ts).
 */
import type { FencingTrace, TraceStep } from '../core/trace-format.js';
import { figureComplete, figureText } from './conform-summary.js';
import { traceReplayCommand } from './replay.js';
import type { ConformFigure, ConformSummary } from './verify-doc.js';
import type { Block, Cell } from './view.js';
import { formatDuration } from '../core/format.js';

export const CONFORM_INTRO =
  "The exhaustive conformance tour (fencecheck conform): from Init, in every state reached, every transition the model enables and every attempt it refuses runs through the real Lua scripts, gate and door on real Valkey, and the keyspace read back is compared with the model's prediction.";

function figureCell(f: ConformFigure): Cell {
  if (f.model === 0 && f.executed === 0) return { text: '—', tone: 'muted', title: 'the model has none' };
  return { text: figureText(f), tone: figureComplete(f) ? 'ok' : 'bad' };
}

export interface ConformTrace {
  readonly path: string;
  readonly anchor: string;
  readonly loaded: { trace: FencingTrace } | { error: string } | undefined;
}

export function conformBlocks(s: ConformSummary, trace: ConformTrace | undefined): Block[] {
  const blocks: Block[] = [];
  const c = s.coverage;
  if (c) {
    const row = (name: string, f: ConformFigure): Cell[] => [{ text: name }, { text: String(f.executed) }, { text: String(f.model) }, { text: `${f.percent.toFixed(1)} %`, tone: figureComplete(f) ? 'ok' : 'bad' }];
    blocks.push({
      kind: 'table',
      id: 'conform-coverage',
      columns: ['coverage', 'executed', 'model total', '%'],
      rows: [row('states', c.states), row('transitions', c.transitions), row('refused attempts', c.refused)],
    });
  }
  const kv: [string, string][] = [];
  if (s.checks !== undefined) kv.push(['checks', s.checks === 'conformance' ? 'full conformance: every decision and successor, every invariant, TTL rules, T3, read side' : s.checks]);
  if (s.bounds) kv.push(['bounds', `Pods = {${s.bounds.pods.join(', ')}}, MaxGen = ${s.bounds.maxGen}`]);
  if (s.realStates !== undefined) kv.push(['real states reached', `${s.realStates}${c && s.realStates > c.states.executed ? ` (${s.realStates - c.states.executed} the model never reaches)` : ''}`]);
  if (s.attempts !== undefined) kv.push(['attempts executed', String(s.attempts)]);
  if (s.depth !== undefined) kv.push(['depth', String(s.depth)]);
  if (s.tourMs !== undefined) kv.push(['tour time', formatDuration(s.tourMs)]);
  if (s.equalToModel !== undefined) kv.push(["real graph = model's", s.equalToModel === null ? 'unknown (the tour stopped at the first failure)' : s.equalToModel ? 'yes' : 'no']);
  if (kv.length > 0) blocks.push({ kind: 'kv', rows: kv });

  if (s.actions && s.actions.length > 0) {
    // The mismatch column only when a conformance mismatch names an attempt (an invariant alone names a state).
    const marked = s.actions.some((a) => a.mismatch);
    blocks.push(
      { kind: 'heading', text: 'Per action' },
      { kind: 'p', text: 'Transitions: the model\'s labelled transitions of the action the tour executed. Refused attempts: attempts of this kind (or gate step) the model refuses, executed and refused by the real system too.' },
      {
        kind: 'table',
        id: 'conform-actions',
        columns: ['action or attempt', 'transitions', 'refused attempts', 'coverage', ...(marked ? ['first mismatch'] : [])],
        rows: s.actions.map((a) => [
          { text: a.action },
          figureCell(a.transitions),
          figureCell(a.refused),
          { text: `${a.percent.toFixed(1)} %`, tone: a.complete ? 'ok' : 'bad' },
          ...(marked ? [a.mismatch ? ({ text: s.failure?.attempt ?? 'here', tone: 'bad' } as Cell) : { text: '' }] : []),
        ]),
      },
    );
  }

  const f = s.failure;
  if (f || s.status === 'failed') {
    blocks.push({ kind: 'heading', text: 'First mismatch' });
    blocks.push({ kind: 'p', text: f ? `${f.check}: ${f.message}` : (s.reason ?? s.summary), tone: 'bad' });
    const rows: [string, string][] = [];
    if (f?.attempt !== undefined) rows.push(['attempt', f.attempt]);
    if (f?.real !== undefined) rows.push(['real system', f.real]);
    if (f?.predicted !== undefined) rows.push(['model predicts', f.predicted]);
    if (f?.steps !== undefined) rows.push(['path', `${f.steps} steps from Init`]);
    if (s.tracePath !== undefined) rows.push(['trace', s.tracePath]);
    if (rows.length > 0) blocks.push({ kind: 'kv', rows });
    if (s.replay !== undefined) blocks.push({ kind: 'p', text: 'Replay it on real Valkey, step by step against the model:' }, { kind: 'code', text: s.replay });
    if (trace) {
      if (trace.loaded && 'trace' in trace.loaded) blocks.push({ kind: 'trace', anchor: trace.anchor, path: trace.path, trace: trace.loaded.trace, replay: s.replay ?? traceReplayCommand(trace.path) });
      else blocks.push({ kind: 'p', text: `The trace could not be read: ${trace.loaded && 'error' in trace.loaded ? trace.loaded.error : 'not found'}`, tone: 'warn' });
    }
  }
  return blocks;
}

/**
 * What the real system did at a conform trace's step (its `observed` attempt, decision and note),
 * e.g. `acquire: issued 2` or `renew (renewed): …`; '' for other traces' steps.
 */
export function observedText(step: TraceStep): string {
  const o = step.observed;
  if (!o) return '';
  const attempt = typeof o.attempt === 'string' ? o.attempt : '';
  const decision = typeof o.decision === 'string' ? o.decision : '';
  const note = typeof o.note === 'string' ? o.note : '';
  const head = `${attempt}${decision && decision !== 'transition' ? ` (${decision})` : ''}`;
  return [head, note].filter(Boolean).join(': ');
}

/** Conform traces get a column for what the real system did at each step. */
export function hasObservedColumn(trace: FencingTrace): boolean {
  return trace.source === 'conform' && trace.steps.some((s) => observedText(s) !== '');
}
