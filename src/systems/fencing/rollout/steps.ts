/**
 * The pipeline's side of the gate: ask before a step, again every scrape while it refuses (a
 * refusal is the rollout waiting, not failing), and on "allowed" write the step into the deploy
 * record, as `fencecheck gate --apply` does. A step refused past its timeout fails the run.
 */
import type { ValkeyClient } from '../../../valkey/index.js';
import { delay } from '../../../valkey/wait.js';
import { askGate } from '../gate/ask.js';
import type { Gate } from '../gate/gate.js';
import type { FleetSources } from '../gate/read-fleet.js';
import { applyStep, readRecord, writeRecord } from '../gate/record.js';
import type { GateObservations } from '../gate/observations.js';
import type { GateStep } from '../gate/rules.js';
import type { KeyslotCheck } from '../gate/observations.js';
import type { FencingScripts } from '../scripts.js';
import type { Violations } from './checks.js';
import { countRefusals, type Refusal, type RehearsalFigures } from './figures.js';
import type { RehearsalObserver } from './observer.js';

export interface StepAsker {
  /** True once the gate allowed `step` (and the record holds it); false when it never did in time. `keyslot`: the pre-door CLUSTER KEYSLOT check. */
  ask(step: GateStep, facts?: { readonly keyslot?: KeyslotCheck }): Promise<boolean>;
}

export interface StepAskerOptions {
  readonly conn: ValkeyClient;
  readonly scripts: FencingScripts;
  readonly fleet: FleetSources;
  readonly recordPath: string;
  readonly gate?: Gate;
  readonly stepTimeoutMs: number;
  /** How long to wait before asking again after a refusal. */
  readonly retryMs: number;
  readonly figures: RehearsalFigures;
  readonly violations: Violations;
  readonly observer: RehearsalObserver;
  readonly say: (line: string) => void;
  /** What the pipeline does on a refusal, from the facts the gate read (before it asks again). */
  readonly onRefused?: (obs: GateObservations, refusedBy: readonly Refusal[]) => Promise<void>;
}

/** A source the gate could not read: it fails closed, named by what went wrong (`SourceUnreachable`, `SourceMalformed`). */
function sourceRule(err: Error): string {
  return err.name.endsWith('Error') ? err.name.slice(0, -'Error'.length) : 'Source';
}

export function stepAsker(o: StepAskerOptions): StepAsker {
  const recordNow = () => {
    const r = readRecord(o.recordPath);
    return { at: Date.now(), target: r.target, mode: r.mode, backfilled: r.backfilled };
  };
  return {
    async ask(step, facts) {
      const deadline = Date.now() + o.stepTimeoutMs;
      let last = '';
      o.observer.stepAsked?.({ step, ...recordNow() });
      for (;;) {
        const { decision, obs } = await askGate(step, {
          conn: o.conn,
          scripts: o.scripts,
          fleet: o.fleet,
          recordPath: o.recordPath,
          ...(o.gate && { gate: o.gate }),
          ...(facts?.keyslot && { keyslot: facts.keyslot }),
        }).catch((err: Error) => ({
          decision: { allowed: false, refusedBy: [{ rule: sourceRule(err), reason: err.message }] },
          obs: undefined,
        }));
        if (decision.allowed) {
          const rec = readRecord(o.recordPath);
          if (step === 'AdvanceTarget' && rec.target === 'B') o.figures.oldCensusBeforeC = obs!.oldLeaseCensus;
          const after = applyStep(rec, step);
          writeRecord(o.recordPath, after);
          o.figures.steps.push(`${step} → target ${after.target}`);
          o.say(`rollout: gate allowed ${step} (target now ${after.target})`);
          const at = Date.now();
          o.observer.stepAllowed?.({ at, step, target: after.target, mode: after.mode, backfilled: after.backfilled });
          if (after.target !== rec.target || after.mode !== rec.mode) o.observer.phaseChanged?.({ at, target: after.target, mode: after.mode, backfilled: after.backfilled, by: step });
          return true;
        }
        countRefusals(o.figures, decision.refusedBy);
        o.observer.stepRefused?.({ step, ...recordNow(), refusedBy: decision.refusedBy });
        last = decision.refusedBy.map((r) => `${r.rule}: ${r.reason}`).join('; ');
        if (obs) await o.onRefused?.(obs, decision.refusedBy);
        if (Date.now() > deadline) {
          o.violations.add(`the gate never allowed ${step} within ${o.stepTimeoutMs} ms: ${last}`);
          return false;
        }
        await delay(o.retryMs);
      }
    },
  };
}
