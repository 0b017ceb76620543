--------------------------- MODULE PauseSnapshot ---------------------------
(***************************************************************************)
(* Seed 000, "Phase 2: zero-I/O pause reads without a stale fleet".        *)
(* One pause flag in Valkey (state + version, written together by          *)
(* MULTI/EXEC), a fleet of replicas each holding an immutable snapshot     *)
(* (paused, version), an invalidation event per committed write on a       *)
(* best-effort channel that may drop and reorder, a reconciler per replica *)
(* and a fail-closed bound on a snapshot's age.                            *)
(*                                                                         *)
(* Valkey's state is the history of committed writes: version v holds      *)
(* history[v]; version 0 is the initial "not paused".                      *)
(*                                                                         *)
(* Mutation without editing the spec: each mutable guard or effect is a    *)
(* named definition that reads Kept("<its name>"); a mutant config puts    *)
(* that name into the constant Dropped (tla/mutants/P*.cfg).               *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANTS
    Replicas,   \* the outgress replicas (model values)
    MaxCalls,   \* SetPaused calls in one behaviour (some concurrent)
    MaxAge,     \* the fail-closed bound: a snapshot older than this many ticks is not served
    None,       \* "no snapshot yet" / "no reconciliation in flight"
    Dropped     \* mutation points switched off ({} in the base model)

MutationPoints == {"Deliver_VersionCheck", "SetPaused_PublishAfterWrite", "Reconcile_ReadsValkey",
                   "Read_FailClosed", "Ready_AfterSnapshot", "Subscribe_BeforeLoad",
                   "Read_ServesEvents", "Read_NewestSnapshot"}
ASSUME Dropped \subseteq MutationPoints
Kept(name) == name \notin Dropped

VARIABLES
    history,    \* <<p1, p2, ...>>: the paused value of each committed version
    calls,      \* SetPaused calls begun so far
    pending,    \* calls begun and not yet written: [by |-> replica, paused |-> BOOLEAN, version |-> announced version]
    chan,       \* chan[r]: invalidation events in flight to r (a set: delivered in any order)
    dropped,    \* dropped[r]: versions newer than r's snapshot whose event the channel dropped
    subscribed, \* subscribed[r]: r listens on the invalidation channel
    snap,       \* snap[r]: r's snapshot [paused, version], or None before the initial load
    age,        \* age[r]: ticks since r's last successful load or reconciliation (capped at MaxAge + 1)
    ready,      \* ready[r]: r reported ready (consumes lane messages)
    applied,    \* applied[r]: the highest version r ever held (history variable)
    synced      \* synced[r]: Valkey's version when r last loaded or reconciled successfully

vars == <<history, calls, pending, chan, dropped, subscribed, snap, age, ready, applied, synced>>

Version == Len(history)
Paused == IF Version = 0 THEN FALSE ELSE history[Version]
Event(p, v) == [paused |-> p, version |-> v]
Snapshot == [paused : BOOLEAN, version : 0..MaxCalls]
Max(a, b) == IF a >= b THEN a ELSE b

\* Valkey's value at version v (version 0 is "not paused").
ValueAt(v) == IF v = 0 THEN FALSE ELSE history[v]

\* The hot read of a ready replica: one reference read, no I/O. Past the age bound it answers
\* "unavailable" (served = FALSE), never a value; within it, the snapshot's value. Two mutation
\* points fail on the other side: Read_ServesEvents (dropped: a snapshot an event brought, newer
\* than the last sync, is refused until a reconciliation confirms it) and Read_NewestSnapshot
\* (dropped: the answer is the value the last sync read, not the newest snapshot's).
Answer(r) ==
    IF Kept("Read_FailClosed") /\ age[r] > MaxAge THEN [served |-> FALSE, paused |-> FALSE]
    ELSE IF ~Kept("Read_ServesEvents") /\ snap[r].version > synced[r] THEN [served |-> FALSE, paused |-> FALSE]
    ELSE [served |-> TRUE, paused |-> IF Kept("Read_NewestSnapshot") THEN snap[r].paused ELSE ValueAt(synced[r])]

TypeOK ==
    /\ history \in Seq(BOOLEAN) /\ Len(history) <= MaxCalls
    /\ calls \in 0..MaxCalls
    /\ pending \subseteq [by : Replicas, paused : BOOLEAN, version : 0..MaxCalls]
    /\ \A r \in Replicas :
        /\ chan[r] \subseteq [paused : BOOLEAN, version : 1..MaxCalls]
        /\ dropped[r] \subseteq 1..MaxCalls
        /\ subscribed[r] \in BOOLEAN /\ ready[r] \in BOOLEAN
        /\ snap[r] \in Snapshot \cup {None}
        /\ age[r] \in 0..MaxAge + 1
        /\ applied[r] \in 0..MaxCalls
        /\ synced[r] \in 0..MaxCalls

Init ==
    /\ history = <<>>
    /\ calls = 0
    /\ pending = {}
    /\ chan = [r \in Replicas |-> {}]
    /\ dropped = [r \in Replicas |-> {}]
    /\ subscribed = [r \in Replicas |-> FALSE]
    /\ snap = [r \in Replicas |-> None]
    /\ age = [r \in Replicas |-> 0]
    /\ ready = [r \in Replicas |-> FALSE]
    /\ applied = [r \in Replicas |-> 0]
    /\ synced = [r \in Replicas |-> 0]

\* r holds snapshot s from now on. applied remembers the highest version r ever held; dropped keeps
\* only the versions still newer than the snapshot (older ones can no longer be missed).
Hold(r, s) ==
    /\ snap' = [snap EXCEPT ![r] = s]
    /\ applied' = [applied EXCEPT ![r] = Max(applied[r], s.version)]
    /\ dropped' = [dropped EXCEPT ![r] = {v \in @ : v > s.version}]

\* The event of version v goes to every subscribed replica.
Publish(e) == chan' = [r \in Replicas |-> IF subscribed[r] THEN chan[r] \cup {e} ELSE chan[r]]

\* ---- a replica starts: subscribe, load the initial snapshot, report ready ----

\* Subscribe before loading, so that no event falls between the load and the subscription.
Subscribe_BeforeLoad(r) == IF Kept("Subscribe_BeforeLoad") THEN snap[r] = None ELSE snap[r] # None
Subscribe(r) ==
    /\ ~subscribed[r] /\ Subscribe_BeforeLoad(r)
    /\ subscribed' = [subscribed EXCEPT ![r] = TRUE]
    /\ UNCHANGED <<history, calls, pending, chan, dropped, snap, age, ready, applied, synced>>

\* GET state + version (one MGET of one slot): the initial snapshot.
Load(r) ==
    /\ snap[r] = None /\ (subscribed[r] \/ ~Kept("Subscribe_BeforeLoad"))
    /\ Hold(r, Event(Paused, Version))
    /\ age' = [age EXCEPT ![r] = 0]
    /\ synced' = [synced EXCEPT ![r] = Version]
    /\ UNCHANGED <<history, calls, pending, chan, subscribed, ready>>

Ready_AfterSnapshot(r) == IF Kept("Ready_AfterSnapshot") THEN snap[r] # None /\ subscribed[r] ELSE TRUE
Ready(r) ==
    /\ ~ready[r] /\ Ready_AfterSnapshot(r)
    /\ ready' = [ready EXCEPT ![r] = TRUE]
    /\ UNCHANGED <<history, calls, pending, chan, dropped, subscribed, snap, age, applied, synced>>

\* ---- SetPaused(p), executed by one ready replica (the management RPC is queue-grouped) ----

\* Begin: the call is accepted; with the mutant it publishes (and updates the local snapshot)
\* before the write, announcing the version the write is expected to get.
SetPaused_PublishAfterWrite == Kept("SetPaused_PublishAfterWrite")
BeginSetPaused(r, p) ==
    /\ ready[r] /\ calls < MaxCalls
    /\ calls' = calls + 1
    \* The announced version matters only to the early publish (the real design announces nothing).
    /\ LET c == [by |-> r, paused |-> p, version |-> IF SetPaused_PublishAfterWrite THEN 0 ELSE Version + 1] IN
        /\ pending' = pending \cup {c}
        /\ IF SetPaused_PublishAfterWrite
             THEN UNCHANGED <<chan, snap, applied, dropped>>
             ELSE /\ Publish(Event(p, c.version))
                  /\ IF snap[r] # None /\ c.version > snap[r].version THEN Hold(r, Event(p, c.version)) ELSE UNCHANGED <<snap, applied, dropped>>
    /\ UNCHANGED <<history, subscribed, age, ready, synced>>

\* MULTI/EXEC SET + INCR succeeded: version Version + 1 holds p. Then publish, then update the local snapshot.
CommitSetPaused(c) ==
    /\ c \in pending
    /\ history' = Append(history, c.paused)
    /\ pending' = pending \ {c}
    /\ LET e == Event(c.paused, Version + 1) IN
        IF SetPaused_PublishAfterWrite
          THEN /\ Publish(e)
               /\ IF snap[c.by] # None /\ e.version > snap[c.by].version THEN Hold(c.by, e) ELSE UNCHANGED <<snap, applied, dropped>>
          ELSE UNCHANGED <<chan, snap, applied, dropped>>
    /\ UNCHANGED <<calls, subscribed, age, ready, synced>>

\* The write failed (a lost connection, a paused server): nothing is published, nothing changes locally.
FailSetPaused(c) ==
    /\ c \in pending
    /\ pending' = pending \ {c}
    /\ UNCHANGED <<history, calls, chan, dropped, subscribed, snap, age, ready, applied, synced>>

\* ---- the invalidation channel: best effort, any order ----

Deliver_VersionCheck(r, e) == IF Kept("Deliver_VersionCheck") THEN e.version > snap[r].version ELSE TRUE
Deliver(r, e) ==
    /\ e \in chan[r]
    /\ chan' = [chan EXCEPT ![r] = @ \ {e}]
    \* Before the initial load an event is not applied: the load reads a state at least as new.
    /\ IF snap[r] # None /\ Deliver_VersionCheck(r, e) THEN Hold(r, e) ELSE UNCHANGED <<snap, applied, dropped>>
    /\ UNCHANGED <<history, calls, pending, subscribed, age, ready, synced>>

Drop(r, e) ==
    /\ e \in chan[r]
    /\ chan' = [chan EXCEPT ![r] = @ \ {e}]
    \* Only a version newer than r's snapshot can be missed (before the load: the load reads a newer state).
    /\ dropped' = [dropped EXCEPT ![r] = IF snap[r] # None /\ e.version > snap[r].version THEN @ \cup {e.version} ELSE @]
    /\ UNCHANGED <<history, calls, pending, subscribed, snap, age, ready, applied, synced>>

\* ---- the reconciler: MGET state + version on a jittered interval ----

\* One MGET (state and version share a slot: one atomic read). A successful read applies what Valkey
\* holds if it is newer, and the snapshot is fresh again; the mutant marks the reconciliation done
\* without reading Valkey. A failed read changes nothing (the snapshot keeps ageing): a stutter.
Reconcile_ReadsValkey == Kept("Reconcile_ReadsValkey")
Reconcile(r) ==
    /\ snap[r] # None
    /\ IF Reconcile_ReadsValkey /\ Version > snap[r].version THEN Hold(r, Event(Paused, Version)) ELSE UNCHANGED <<snap, applied, dropped>>
    /\ age' = [age EXCEPT ![r] = 0]
    /\ synced' = [synced EXCEPT ![r] = Version]
    /\ UNCHANGED <<history, calls, pending, chan, subscribed, ready>>

\* ---- time ----

Tick ==
    /\ \E r \in Replicas : snap[r] # None /\ age[r] <= MaxAge
    /\ age' = [r \in Replicas |-> IF snap[r] # None /\ age[r] <= MaxAge THEN age[r] + 1 ELSE age[r]]
    /\ UNCHANGED <<history, calls, pending, chan, dropped, subscribed, snap, ready, applied, synced>>

Next ==
    \/ \E r \in Replicas : Subscribe(r) \/ Load(r) \/ Ready(r)
    \/ \E r \in Replicas, p \in BOOLEAN : BeginSetPaused(r, p)
    \/ \E c \in pending : CommitSetPaused(c) \/ FailSetPaused(c)
    \/ \E r \in Replicas : \E e \in chan[r] : Deliver(r, e) \/ Drop(r, e)
    \/ \E r \in Replicas : Reconcile(r)
    \/ Tick

Spec == Init /\ [][Next]_vars

\* ---- invariants (seed 000, "Required tests", as safety properties) ----

\* Out-of-order versions cannot revert state: a replica never holds an older version than it held before.
Inv_NoRevert == \A r \in Replicas : snap[r] # None => snap[r].version = applied[r]

\* A failed write is neither published nor exposed: every snapshot and every event in flight is a committed write.
Committed(s) == s.version <= Version /\ (IF s.version = 0 THEN s.paused = FALSE ELSE history[s.version] = s.paused)
Inv_OnlyCommitted ==
    \A r \in Replicas : (snap[r] # None => Committed(snap[r])) /\ \A e \in chan[r] : Committed(e)

\* Stale snapshots fail closed: past the age bound a ready replica answers "unavailable", never a value.
Inv_FailClosed == \A r \in Replicas : ready[r] /\ snap[r] # None /\ age[r] > MaxAge => ~Answer(r).served

\* The other side of the answer: a ready replica whose snapshot is within the age bound serves it,
\* with the snapshot's value (never "unavailable", never another value).
Inv_ServesFresh == \A r \in Replicas : ready[r] /\ snap[r] # None /\ age[r] <= MaxAge => Answer(r).served /\ Answer(r).paused = snap[r].paused

\* Startup does not become ready until an initial snapshot exists (and the subscription is up).
Inv_ReadyAfterSnapshot == \A r \in Replicas : ready[r] => snap[r] # None /\ subscribed[r]

\* After a load or a reconciliation, a replica's version is at least the version Valkey held then.
Inv_ReconcileFresh == \A r \in Replicas : snap[r] # None => snap[r].version >= synced[r]

\* No missed-event window: every version committed after a ready replica's snapshot is on its way to it
\* (in its channel) or was dropped by the channel (reconciliation repairs those) — never skipped unseen.
Inv_NoMissedEvent ==
    \A r \in Replicas : ready[r] /\ snap[r] # None =>
        \A v \in (snap[r].version + 1)..Version : v \in {e.version : e \in chan[r]} \cup dropped[r]
=============================================================================
