/**
 * Broken deployment gates, each a whole Gate handed to the rehearsal in place of the real one (a
 * mutant of the gate as a pipeline would run it). The rehearsal does not know which is in use: it
 * asks, acts on the answer and checks the ordinary invariants (T1, T2, E1, the drain before C).
 */
import { createGate, type Gate } from '../gate/gate.js';
import { replicaSetOf } from '../gate/fleet.js';
import type { GateObservations } from '../gate/observations.js';
import { PHASES, type Phase } from '../state.js';

export interface BrokenGate {
  readonly name: string;
  readonly description: string;
  /** The invariant the rehearsal must name when it kills it. */
  readonly expectedInvariant: string;
  /** A fresh gate for one run (`ttlMs`: the lease TTL, for the temporal drain). */
  make(o: { readonly ttlMs: number }): Gate;
}

/** The real gate deciding on observations rewritten by `see` (what the broken gate believes). */
function believing(see: (step: string, o: GateObservations) => GateObservations, drop: Parameters<typeof createGate>[0] = {}): Gate {
  const real = createGate(drop);
  return { dropped: real.dropped, decide: (step, o) => real.decide(step, see(step, o)) };
}

/** The phase an image tag names (`relay:phase-B` → B), or undefined. */
function phaseOfImage(image: string | undefined): Phase | undefined {
  const m = /phase-([A-Z])$/.exec(image ?? '');
  return m && (PHASES as readonly string[]).includes(m[1]!) ? (m[1] as Phase) : undefined;
}

export const BROKEN_GATES: readonly BrokenGate[] = [
  {
    name: 'skip-older-replicasets',
    description: 'the gate skips rule 2(b): an image change while an older ReplicaSet still asks for pods',
    expectedInvariant: 'E1_AdjacentPhases',
    make: () => createGate({ drop: ['ImageChange_OlderReplicaSetsAtZero'] }),
  },
  {
    name: 'image-tags',
    description: "the gate reads each pod's phase from its ReplicaSet's image tag instead of its buzz_fencing_phase gauge",
    expectedInvariant: 'E1_AdjacentPhases',
    make: () =>
      believing((_, o) => {
        if (!o.fleet) return o;
        const byTag: Record<string, Phase> = {};
        for (const pod of Object.keys(o.fleet.pods)) {
          const p = phaseOfImage(replicaSetOf(pod, o.fleet.replicaSets)?.image);
          if (p) byTag[pod] = p;
        }
        return { ...o, podPhases: byTag };
      }),
  },
  {
    name: 'temporal-drain',
    description: 'the C-gate waits one TTL after the fleet is first seen full B instead of observing the old-keyspace lease count',
    expectedInvariant: 'OldKeyspaceDrainedBeforeC',
    make: ({ ttlMs }) => {
      let fullBSince: number | undefined;
      return believing((step, o) => {
        const fullB = o.target === 'B' && Object.values(o.podPhases).every((p) => p === 'B');
        if (!fullB) fullBSince = undefined;
        else fullBSince ??= Date.now();
        if (step !== 'AdvanceTarget' || fullBSince === undefined) return o;
        return Date.now() - fullBSince >= ttlMs ? { ...o, oldLeaseCensus: 0 } : { ...o, oldLeaseCensus: Math.max(1, o.oldLeaseCensus) };
      });
    },
  },
  {
    name: 'rollback-two-phases',
    description: 'the rollback matrix lets a rollback start while pods still run above the target (two phases rolled back at once)',
    expectedInvariant: 'E1_AdjacentPhases',
    make: () => createGate({ drop: ['Rollback_NoPodAboveTarget'] }),
  },
  {
    name: 'backfill-survives-rollback',
    description: 'the gate remembers a backfill across a rollback (its record of it is never cleared)',
    expectedInvariant: 'T2',
    make: () => {
      let ran = false;
      return believing((_, o) => {
        ran ||= o.backfilled;
        return { ...o, backfilled: ran };
      });
    },
  },
];

export function brokenGate(name: string): BrokenGate | undefined {
  return BROKEN_GATES.find((g) => g.name === name);
}
