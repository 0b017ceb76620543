/**
 * The one command that reproduces a mutant × layer cell, for JUnit failure bodies, the matrix and
 * the HTML trace sections. A saved trace replays on real Valkey (`fencecheck trace replay`, which
 * applies the trace's mutant itself); a layer that names its own command (MutantResult.replay: a
 * property layer's seed and path with the mutant's patch, the pause walk, a seam system's TLC run,
 * the failover drill) gives that; anything else reruns the mutant at its layer.
 */
import type { Layer } from '../core/manifest.js';
import type { MatrixCell, StageOutcome } from './verify-doc.js';
import { systemEntry } from '../registry/systems.js';

type ReplayFields = Pick<MatrixCell, 'verdict' | 'tracePath' | 'seed' | 'path' | 'replay'>;

export function replayCommand(id: string, layer: Layer, cell: ReplayFields, system?: string): string | undefined {
  if (cell.verdict === 'n/a' || cell.verdict === 'not-selected') return undefined;
  // The layer's own command (a seam system's walk, TLC run or drill) comes first.
  if (cell.replay) return cell.replay;
  if (cell.tracePath) return traceReplayCommand(cell.tracePath, system);
  // '=': a negative seed must not read as an option (src/core/args.ts).
  const seed = cell.seed !== undefined ? ` --seed=${cell.seed}` : '';
  if (layer === 'tla') return `fencecheck tlc --only ${id}`;
  return `fencecheck mutants --layer ${layer} --only ${id}${seed}`;
}

/**
 * The one command for a saved trace: its replay on the real code when its system has a replayer
 * (or the system is not known here), else `trace show` — a trace of a system without a replay
 * (or of another spec) is shown, not offered a replay that would only say it has none.
 */
export function traceReplayCommand(tracePath: string, system?: string): string {
  if (system !== undefined && !systemEntry(system)?.replay) return `fencecheck trace show ${tracePath}`;
  return `fencecheck trace replay ${tracePath}`;
}

/** How the reports label a trace's command: `replay`, or `show` for a trace that does not replay. */
export function traceCommandLabel(command: string): string {
  return command.startsWith('fencecheck trace show ') ? 'show' : 'replay';
}

/**
 * The command that reproduces a stage's failure: the one its report names (`details.replay`: the
 * first mismatch's trace, a failing run's seed and path), or else the stage's own command (without
 * --json).
 */
export function stageReplayCommand(o: Pick<StageOutcome, 'stage' | 'command' | 'report'>): string {
  const d = o.report?.details;
  const named = typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as Record<string, unknown>).replay : undefined;
  if (typeof named === 'string' && named !== '') return named;
  return `fencecheck ${o.command.filter((a) => a !== '--json').join(' ')}`;
}
