/** The rehearsal's figures: what it did, counted as it ran, and the one-line summary the CLI and bench print. */
import type { DoorFigures } from './doors.js';

export interface RehearsalFigures {
  podsStarted: number;
  sessions: number;
  generationsIssued: number;
  steps: string[];
  refusalsByRule: Record<string, number>;
  chaos: string[];
  oldCensusBeforeC: number | null;
  keyspaceReads: number;
  /** Leases a B pod moved from the old key to the new one on renew (handed over from A pods). */
  migrations: number;
  /** The mode doors after C (doors.ts): null when the run did not reach them. */
  doors: DoorFigures | null;
  /** Sessions of a pod that stopped renewing, taken over by another pod with a higher generation. */
  takeovers: number;
  wallMs: number;
}

export function newFigures(sessions: number): RehearsalFigures {
  return { podsStarted: 0, sessions, generationsIssued: 0, steps: [], refusalsByRule: {}, chaos: [], oldCensusBeforeC: null, keyspaceReads: 0, migrations: 0, takeovers: 0, doors: null, wallMs: 0 };
}

/** A gate rule's refusal, or `Source` when a source the gate reads could not be read (it fails closed). */
export interface Refusal {
  readonly rule: string;
  readonly reason: string;
}

export function countRefusals(f: RehearsalFigures, refusedBy: readonly Refusal[]): void {
  for (const r of refusedBy) f.refusalsByRule[r.rule] = (f.refusalsByRule[r.rule] ?? 0) + 1;
}

/** `seed 7; 9 pods started, …, 31.2 s`: one line of every figure. */
export function describeFigures(seed: number, f: RehearsalFigures): string {
  const refusals = Object.entries(f.refusalsByRule)
    .map(([r, n]) => `${r} ${n}`)
    .join(', ');
  return `seed ${seed}; ${f.podsStarted} pods started, ${f.sessions} sessions, ${f.generationsIssued} generations issued, ${f.migrations} renew-migrations, ${f.takeovers} takeovers after a stopped renewer, ${f.steps.length} gated steps, refusals ${refusals || 'none'}, chaos ${f.chaos.join('; ') || 'none'}, old-keyspace leases before C ${f.oldCensusBeforeC ?? 'not reached'}, ${f.keyspaceReads} keyspace reads, ${(f.wallMs / 1000).toFixed(1)} s`;
}
