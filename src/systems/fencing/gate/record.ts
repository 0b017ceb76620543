/**
 * The deploy record: the gate's own durable memory of the pipeline's facts — the target phase, the
 * mode, whether the backfill ran since the last rollback — in one JSON file the gate writes and
 * reads (atomically: a temporary file renamed over it). The gate writes a step into it only when it
 * allowed that step (`--apply`), so the record never says more than the gate granted; a rollback
 * clears the backfill record (seed "Deployment Gate", rule 4), a re-run backfill sets it again.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { SourceMalformedError, SourceUnreachableError } from '../../../fleet/sources.js';
import { MODES, PHASES, type Mode, type Phase } from '../state.js';
import type { GateStep } from './rules.js';

export const DEPLOY_RECORD_FORMAT = 'fencecheck.deploy-record/1';

export interface DeployRecord {
  readonly format: typeof DEPLOY_RECORD_FORMAT;
  readonly target: Phase;
  readonly mode: Mode;
  readonly backfilled: boolean;
  /** Every step the gate granted and recorded, oldest first. */
  readonly history: readonly { readonly at: string; readonly step: GateStep; readonly target: Phase; readonly mode: Mode; readonly backfilled: boolean }[];
}

export function initialRecord(): DeployRecord {
  return { format: DEPLOY_RECORD_FORMAT, target: 'O', mode: 'disabled', backfilled: false, history: [] };
}

export function readRecord(path: string): DeployRecord {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SourceUnreachableError(`deploy record ${path}`, code === 'ENOENT' ? 'no such file (create it with --init-record)' : (err as Error).message);
  }
  const bad = (why: string): never => {
    throw new SourceMalformedError(`deploy record ${path}`, why);
  };
  let r: Partial<DeployRecord>;
  try {
    r = JSON.parse(text) as Partial<DeployRecord>;
  } catch (err) {
    return bad(`not JSON (${(err as Error).message})`);
  }
  if (r?.format !== DEPLOY_RECORD_FORMAT) bad(`format is ${JSON.stringify(r?.format)}, not ${DEPLOY_RECORD_FORMAT}`);
  if (!(PHASES as readonly unknown[]).includes(r.target)) bad(`target ${JSON.stringify(r.target)} is not a phase`);
  if (!(MODES as readonly unknown[]).includes(r.mode)) bad(`mode ${JSON.stringify(r.mode)} is not a mode`);
  if (typeof r.backfilled !== 'boolean') bad('backfilled is not true or false');
  if (!Array.isArray(r.history)) bad('history is not a list');
  return r as DeployRecord;
}

export function writeRecord(path: string, rec: DeployRecord): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(rec, null, 2)}\n`);
  renameSync(tmp, path);
}

const next = (p: Phase) => PHASES[Math.min(PHASES.indexOf(p) + 1, PHASES.length - 1)]!;
const previous = (p: Phase) => PHASES[Math.max(PHASES.indexOf(p) - 1, 0)]!;

/** The record after a granted step (the model's effect on target, mode and backfilled). */
export function applyStep(rec: DeployRecord, step: GateStep, at = new Date().toISOString()): DeployRecord {
  let { target, mode, backfilled } = rec;
  switch (step) {
    case 'AdvanceTarget':
      target = next(target);
      break;
    case 'RollbackPhase':
      target = previous(target);
      backfilled = false; // rule 4: the backfill must run again after any rollback
      break;
    case 'Backfill':
      backfilled = true;
      break;
    case 'ReverseMerge':
      break;
    case 'EnterCompatible':
      mode = 'compatible';
      break;
    case 'RevertDisabled':
      mode = 'disabled';
      break;
    case 'Enable':
      mode = 'enabled';
      break;
  }
  return { ...rec, target, mode, backfilled, history: [...rec.history, { at, step, target, mode, backfilled }] };
}
