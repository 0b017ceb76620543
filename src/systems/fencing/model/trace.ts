/** Exploration paths as shared fencecheck.trace/1 traces (source 'model'): saved, and printed step by step. */
import { brokenInvariants } from '../invariants.js';
import type { FencingBounds } from '../state.js';
import { writeTraceFile } from '../../../core/trace-dir.js';
import { TRACE_SCHEMA, type FencingTrace } from '../../../core/trace-format.js';
import { actionLabel, stepTable } from '../../../trace/steps.js';
import { eventParams } from '../../../../models/fencing/index.js';
import type { FencingEvent } from '../../../../models/fencing/index.js';
import type { FencingState } from '../state.js';

/** One step of a path: the event taken (null for Init) and the state after it. */
export interface PathStep {
  readonly event: FencingEvent | null;
  readonly state: FencingState;
}

export function pathToTrace(path: readonly PathStep[], meta: { bounds: FencingBounds; mutant?: string; violated?: string }): FencingTrace {
  const last = path[path.length - 1];
  return {
    schema: TRACE_SCHEMA,
    system: 'fencing',
    source: 'model',
    bounds: meta.bounds,
    ...(meta.mutant !== undefined ? { mutant: meta.mutant } : {}),
    ...(meta.violated !== undefined ? { violated: meta.violated } : {}),
    brokenAtEnd: last ? brokenInvariants(last.state, meta.bounds) : [],
    steps: path.map(({ event, state }) => ({
      action: event === null ? 'Init' : event.type,
      params: event === null ? {} : eventParams(event),
      state,
    })),
  };
}

/** Writes the trace as JSON under `dir` (default: the trace folder, src/core/trace-dir.ts); returns its path as reports name it. */
export function saveTrace(trace: FencingTrace, fileName: string, dir?: string): string {
  return writeTraceFile(trace, fileName, dir);
}

/** One line per step: the action with its parameters, then each variable that changed (`old → new`). */
export function formatPath(trace: FencingTrace, indent = '  '): string {
  const { columns, rows } = stepTable(trace);
  return rows
    .map((row, i) => {
      const label = actionLabel(trace.steps[i]!);
      if (i === 0) return `${indent}${String(i).padStart(2)}. ${label}`;
      const before = rows[i - 1]!.cells;
      const changes = columns.filter((c) => row.changed.has(c)).map((c) => `${c}: ${before[c]} → ${row.cells[c]}`);
      const broken = row.newlyBroken.length > 0 ? `   ⚠ breaks ${row.newlyBroken.join(',')}` : '';
      return `${indent}${String(i).padStart(2)}. ${label.padEnd(17)} ${changes.length > 0 ? changes.join(', ') : '(no change)'}${broken}`;
    })
    .join('\n');
}
