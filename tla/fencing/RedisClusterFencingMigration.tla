------------------------- MODULE RedisClusterFencingMigration -------------------------
(***************************************************************************)
(* One fenced session (sessions are independent: per-session keys) during  *)
(* the migration of its lease + generation keys to hash-tagged keys:       *)
(* script versions O -> A -> B -> C, the backfill, the C-gate, emergency   *)
(* rollback, B's renew-migrate, TTL expiry, and the cluster mode doors.    *)
(* Source: seed 003, "The protocol" .. "Mechanized verification"; the      *)
(* details the seed leaves open: shared/design/fencing-model.md.           *)
(*                                                                         *)
(* Mutation: every mutable guard or effect is a named definition below     *)
(* whose name is the mutant manifest's `target`. The constant Dropped      *)
(* names the ones a run removes: {} in the base config, exactly one in     *)
(* each tla/mutants/Mx.cfg. Nothing else differs between the runs.         *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    Pods,       \* the pods of the fleet (model values)
    None,       \* model value: "no owner" on a free lease key
    MaxGen,     \* no generation above MaxGen is issued: keeps the state space finite
    Dropped     \* the named guards/effects this run removes (mutation); {} for the real protocol

Phases == <<"O", "A", "B", "C">>
PhaseSet == {"O", "A", "B", "C"}
Modes == {"disabled", "compatible", "enabled"}

\* The named guards/effects a mutant may drop (mutants/manifest.json `target`s).
MutationPoints == {
    "AcquireB_OldLeaseFree", "AcquireA_NewLeaseFree", "AcquireB_MaxMerge",
    "AdvanceToC_Gate", "AcquireA_MaxMerge", "RollbackToO_NewLeaseFree",
    "RollbackToO_ReverseMerged", "Rollback_NoPodAboveTarget", "EnterCompatible_FleetOnC" }

ASSUME None \notin Pods
ASSUME MaxGen \in Nat
ASSUME Dropped \subseteq MutationPoints     \* a misspelt mutant config fails here, not silently

VARIABLES
    version,     \* version[p]: the script version pod p runs now
    target,      \* the phase the fleet is chasing (the image being rolled out)
    oldLease,    \* the live lease on the old key: [owner, gen]; owner = None when free
    newLease,    \* the live lease on the new hash-tagged key
    oldGen,      \* the old generation counter (never expires, never resets)
    newGen,      \* the new generation counter
    backfilled,  \* the one-time max-merge oldGen -> newGen has run since the last rollback
    mode,        \* the cluster mode door: disabled / compatible / enabled
    lastIssued,  \* history: the last generation issued
    monoOk       \* history: every issued generation exceeded every one before it (T2)

vars == <<version, target, oldLease, newLease, oldGen, newGen, backfilled, mode, lastIssued, monoOk>>

-----------------------------------------------------------------------------
(* Helpers *)

Max(a, b) == IF a >= b THEN a ELSE b
Rank(ph) == CHOOSE i \in 1..4 : Phases[i] = ph
NoLease == [owner |-> None, gen |-> 0]       \* a deleted key: no owner, no generation
Free(lease) == lease.owner = None
Kept(name) == name \notin Dropped
AllAt(ph) == \A q \in Pods : version[q] = ph

\* Issue generation g to a lease: g <= MaxGen, and record T2's history.
Issue(g) == /\ g <= MaxGen
            /\ lastIssued' = g
            /\ monoOk' = (monoOk /\ g > lastIssued)

-----------------------------------------------------------------------------
(* Named guards and effects: the mutation points (one definition each). *)

\* Seed "B: union lease check" -- B must see a legacy lease on the old key (M1).
AcquireB_OldLeaseFree == Kept("AcquireB_OldLeaseFree") => Free(oldLease)
\* Seed "A: acquire checks both lease keys (union check)" -- the new-key half (M2).
AcquireA_NewLeaseFree == Kept("AcquireA_NewLeaseFree") => Free(newLease)
\* Seed "B: generation max(oldGen, newGen) + 1" -- the counter B fences against (M3: newGen alone).
AcquireB_MaxMerge == IF Kept("AcquireB_MaxMerge") THEN Max(oldGen, newGen) ELSE newGen
\* Seed "C-gate: backfill has run and no live old-key lease remains" (M4).
AdvanceToC_Gate == Kept("AdvanceToC_Gate") => (backfilled /\ Free(oldLease))
\* Seed "A: generation issued as max(oldGen, newGen) + 1 ... the union read is load-bearing" (M5).
AcquireA_MaxMerge == IF Kept("AcquireA_MaxMerge") THEN Max(oldGen, newGen) ELSE oldGen
\* Gate rule 4: rolling back into O requires the new keyspace lease-drained (M6).
RollbackToO_NewLeaseFree == Kept("RollbackToO_NewLeaseFree") => Free(newLease)
\* Gate rule 4: rolling back into O requires the reverse max-merge new -> old counter (M7).
RollbackToO_ReverseMerged == Kept("RollbackToO_ReverseMerged") => oldGen >= newGen
\* Gate rule 4: never start a rollback while pods are still above the current target (M8).
Rollback_NoPodAboveTarget == Kept("Rollback_NoPodAboveTarget") => \A q \in Pods : Rank(version[q]) <= Rank(target)
\* Seed "Enter compatible (G3): only with the whole fleet on C" (M9).
EnterCompatible_FleetOnC == Kept("EnterCompatible_FleetOnC") => (target = "C" /\ AllAt("C"))

-----------------------------------------------------------------------------
Init == /\ version = [p \in Pods |-> "O"]
        /\ target = "O"
        /\ oldLease = NoLease
        /\ newLease = NoLease
        /\ oldGen = 0
        /\ newGen = 0
        /\ backfilled = FALSE
        /\ mode = "disabled"
        /\ lastIssued = 0
        /\ monoOk = TRUE

\* Op table, O acquire: old key; INCR old counter.
AcquireO(p) == /\ version[p] = "O"
               /\ Free(oldLease)
               /\ Issue(oldGen + 1)
               /\ oldGen' = oldGen + 1
               /\ oldLease' = [owner |-> p, gen |-> oldGen + 1]
               /\ UNCHANGED <<version, target, newLease, newGen, backfilled, mode>>

\* Op table, A acquire: union check; write old key; max(old,new)+1 -> old counter.
AcquireA(p) == LET g == AcquireA_MaxMerge + 1 IN
               /\ version[p] = "A"
               /\ Free(oldLease)
               /\ AcquireA_NewLeaseFree
               /\ Issue(g)
               /\ oldGen' = g
               /\ oldLease' = [owner |-> p, gen |-> g]
               /\ UNCHANGED <<version, target, newLease, newGen, backfilled, mode>>

\* Op table, B acquire: union check; write new key; max(old,new)+1 -> new counter.
AcquireB(p) == LET g == AcquireB_MaxMerge + 1 IN
               /\ version[p] = "B"
               /\ AcquireB_OldLeaseFree
               /\ Free(newLease)
               /\ Issue(g)
               /\ newGen' = g
               /\ newLease' = [owner |-> p, gen |-> g]
               /\ UNCHANGED <<version, target, oldLease, oldGen, backfilled, mode>>

\* Op table, C acquire: new key; INCR new counter.
AcquireC(p) == /\ version[p] = "C"
               /\ Free(newLease)
               /\ Issue(newGen + 1)
               /\ newGen' = newGen + 1
               /\ newLease' = [owner |-> p, gen |-> newGen + 1]
               /\ UNCHANGED <<version, target, oldLease, oldGen, backfilled, mode>>

\* Seed "B's renewer migrates": own lease on the old key -> new key, same gen, one atomic script; no issuance.
MigrateB(p) == /\ version[p] = "B"
               /\ oldLease.owner = p
               /\ Free(newLease)
               /\ newLease' = oldLease
               /\ oldLease' = NoLease
               /\ UNCHANGED <<version, target, oldGen, newGen, backfilled, mode, lastIssued, monoOk>>

\* Scope of the proof: TTL expiry and release are the same state change (lease lost, counter kept).
ExpireOld == /\ ~Free(oldLease)
             /\ oldLease' = NoLease
             /\ UNCHANGED <<version, target, newLease, oldGen, newGen, backfilled, mode, lastIssued, monoOk>>

\* Same as ExpireOld, for the new key.
ExpireNew == /\ ~Free(newLease)
             /\ newLease' = NoLease
             /\ UNCHANGED <<version, target, oldLease, oldGen, newGen, backfilled, mode, lastIssued, monoOk>>

\* E1 (rolling update): a pod one phase below the target is replaced by the target image.
UpgradePod(p) == /\ Rank(target) > 1
                 /\ version[p] = Phases[Rank(target) - 1]
                 /\ version' = [version EXCEPT ![p] = target]
                 /\ UNCHANGED <<target, oldLease, newLease, oldGen, newGen, backfilled, mode, lastIssued, monoOk>>

\* E1 (rollback): a pod above the target is replaced by the target image.
DowngradePod(p) == /\ Rank(version[p]) > Rank(target)
                   /\ version' = [version EXCEPT ![p] = target]
                   /\ UNCHANGED <<target, oldLease, newLease, oldGen, newGen, backfilled, mode, lastIssued, monoOk>>

\* Gate rule 2 (advance only when every pod runs the target; disabled mode), plus rule 3 for B -> C.
AdvanceTarget == /\ mode = "disabled"
                 /\ target # "C"
                 /\ AllAt(target)
                 /\ target = "B" => AdvanceToC_Gate
                 /\ target' = Phases[Rank(target) + 1]
                 /\ UNCHANGED <<version, oldLease, newLease, oldGen, newGen, backfilled, mode, lastIssued, monoOk>>

\* Seed "Backfill (once, after full-B): fold oldGen into newGen by max-merge. Idempotent."
Backfill == /\ target = "B"
            /\ AllAt("B")
            /\ newGen' = Max(oldGen, newGen)
            /\ backfilled' = TRUE
            /\ UNCHANGED <<version, target, oldLease, newLease, oldGen, mode, lastIssued, monoOk>>

\* Gate rule 4 (rollback matrix): one adjacent phase at a time, never in compatible; invalidates the backfill.
RollbackPhase == /\ mode = "disabled"
                 /\ target # "O"
                 /\ Rollback_NoPodAboveTarget
                 /\ target = "A" => (RollbackToO_NewLeaseFree /\ RollbackToO_ReverseMerged)
                 /\ target' = Phases[Rank(target) - 1]
                 /\ backfilled' = FALSE
                 /\ UNCHANGED <<version, oldLease, newLease, oldGen, newGen, mode, lastIssued, monoOk>>

\* Gate rule 4: the operator-run reverse max-merge of the new counter into the old one (before O).
ReverseMerge == /\ target = "A"
                /\ oldGen' = Max(oldGen, newGen)
                /\ UNCHANGED <<version, target, oldLease, newLease, newGen, backfilled, mode, lastIssued, monoOk>>

\* G3 / T3: compatible only with the fleet on C, backfill done and the old keyspace drained.
EnterCompatible == /\ mode = "disabled"
                   /\ EnterCompatible_FleetOnC
                   /\ backfilled
                   /\ Free(oldLease)
                   /\ mode' = "compatible"
                   /\ UNCHANGED <<version, target, oldLease, newLease, oldGen, newGen, backfilled, lastIssued, monoOk>>

\* G3: "Revert to disabled remains available" from compatible.
RevertDisabled == /\ mode = "compatible"
                  /\ mode' = "disabled"
                  /\ UNCHANGED <<version, target, oldLease, newLease, oldGen, newGen, backfilled, lastIssued, monoOk>>

\* G4 / axiom A3: compatible -> enabled, the one-way door (no action leaves enabled).
Enable == /\ mode = "compatible"
          /\ mode' = "enabled"
          /\ UNCHANGED <<version, target, oldLease, newLease, oldGen, newGen, backfilled, lastIssued, monoOk>>

Next == \/ \E p \in Pods : AcquireO(p) \/ AcquireA(p) \/ AcquireB(p) \/ AcquireC(p)
        \/ \E p \in Pods : MigrateB(p) \/ UpgradePod(p) \/ DowngradePod(p)
        \/ ExpireOld \/ ExpireNew
        \/ AdvanceTarget \/ Backfill \/ RollbackPhase \/ ReverseMerge
        \/ EnterCompatible \/ RevertDisabled \/ Enable

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Invariants. Keep identical to src/fencing/invariants.ts. *)

\* Well-typedness of every variable under the bounds.
TypeOK == /\ version \in [Pods -> PhaseSet]
          /\ target \in PhaseSet
          /\ oldLease \in [owner : Pods \cup {None}, gen : 0..MaxGen]
          /\ newLease \in [owner : Pods \cup {None}, gen : 0..MaxGen]
          /\ oldGen \in 0..MaxGen
          /\ newGen \in 0..MaxGen
          /\ lastIssued \in 0..MaxGen
          /\ backfilled \in BOOLEAN
          /\ monoOk \in BOOLEAN
          /\ mode \in Modes

\* T1 Single Authority: at most one live lease per session across both keyspaces.
Inv_SingleAuthority == ~(~Free(oldLease) /\ ~Free(newLease))

\* T2 Generation Monotonicity, as a one-run safety invariant over the history variables.
Inv_Monotonic == monoOk

\* T3 Slot-Rules Safety: a cluster-protocol mode only with the fleet on C, backfill done, old keyspace drained.
Inv_SlotRulesSafe == mode # "disabled" => (AllAt("C") /\ backfilled /\ Free(oldLease))

\* T2 proof sketch ("A and B fence against the max; the backfill makes C's counter dominate"):
\* a live lease's generation was issued by the counter that can still vouch for it.
Inv_LeaseGenBounded == /\ ~Free(oldLease) => oldLease.gen <= oldGen
                       /\ ~Free(newLease) => newLease.gen <= Max(oldGen, newGen)
                       /\ (backfilled /\ ~Free(newLease)) => newLease.gen <= newGen

=============================================================================
