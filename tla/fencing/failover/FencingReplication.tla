------------------------- MODULE FencingReplication -------------------------
(***************************************************************************)
(* The C-phase fencing lease of one session on a real shard: a primary and  *)
(* a replica with asynchronous replication, and a failover that promotes    *)
(* the replica and loses every write it had not received (issue 17).       *)
(*                                                                         *)
(* The seed's model (RedisClusterFencingMigration.tla) treats a slot as one *)
(* linearizable store. Here an acquire (ops/acquire_c: INCR the generation  *)
(* counter, SET the lease) is acknowledged by the primary before its        *)
(* replica has it, unless the client waits for the replica (WAIT 1 t) and   *)
(* reports "unknown" when the wait times out.                               *)
(*                                                                         *)
(* Mutation without editing the spec: Acquire_WaitReplica is the remedy;    *)
(* the mutant config puts its name into Dropped.                            *)
(*                                                                         *)
(* Axiom R1 (the remedy's trust boundary): a failover promotes a replica    *)
(* that holds every write a WAIT confirmed. With one replica per shard      *)
(* (the topology checked here) that is the only replica; with more, WAIT    *)
(* must count every replica, or Valkey's failover must not pick a replica   *)
(* behind the acknowledged ones — Valkey does not promise that by itself.   *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    Pods,          \* the relay pods (model values)
    None,          \* "no owner"
    MaxGen,        \* generations the counter may reach
    MaxFailovers,  \* failovers in one behaviour
    Dropped        \* mutation points switched off ({} in the base model)

MutationPoints == {"Acquire_WaitReplica"}
ASSUME Dropped \subseteq MutationPoints
Kept(name) == name \notin Dropped

Free == [owner |-> None, gen |-> 0]
\* What one node holds of the session: the lease key and the generation counter.
Store == [lease : [owner : Pods \cup {None}, gen : 0..MaxGen], gen : 0..MaxGen]

VARIABLES
    primary,    \* the node that takes writes
    replica,    \* its replica: a copy of the primary as of the last replication step
    pending,    \* acquires applied on the primary whose client still waits for the replica: [pod, gen]
    held,       \* held[p]: the generation p was told it holds (0: none) — what p fences with
    lastAcked,  \* the highest generation ever acknowledged to a client (history variable)
    monoOk,     \* every acknowledged generation exceeded every one acknowledged before it
    failovers

vars == <<primary, replica, pending, held, lastAcked, monoOk, failovers>>

TypeOK ==
    /\ primary \in Store /\ replica \in Store
    /\ pending \subseteq [pod : Pods, gen : 1..MaxGen]
    /\ held \in [Pods -> 0..MaxGen]
    /\ lastAcked \in 0..MaxGen /\ monoOk \in BOOLEAN
    /\ failovers \in 0..MaxFailovers

Init ==
    /\ primary = [lease |-> Free, gen |-> 0]
    /\ replica = primary
    /\ pending = {}
    /\ held = [p \in Pods |-> 0]
    /\ lastAcked = 0
    /\ monoOk = TRUE
    /\ failovers = 0

Waiting(p) == \E a \in pending : a.pod = p

\* The client is told "applied": from now on p fences with generation g.
Ack(p, g) ==
    /\ held' = [held EXCEPT ![p] = g]
    /\ monoOk' = (monoOk /\ g > lastAcked)
    /\ lastAcked' = IF g > lastAcked THEN g ELSE lastAcked

\* ops/acquire_c on the primary: the lease is free, INCR the counter, SET the lease. Without the
\* remedy the reply is the acknowledgement; with it the client first waits for the replica.
Acquire_WaitReplica == Kept("Acquire_WaitReplica")
Acquire(p) ==
    /\ held[p] = 0 /\ ~Waiting(p)
    /\ primary.lease.owner = None /\ primary.gen < MaxGen
    /\ LET g == primary.gen + 1 IN
        /\ primary' = [lease |-> [owner |-> p, gen |-> g], gen |-> g]
        /\ IF Acquire_WaitReplica
             THEN /\ pending' = pending \cup {[pod |-> p, gen |-> g]}
                  /\ UNCHANGED <<held, lastAcked, monoOk>>
             ELSE /\ Ack(p, g)
                  /\ UNCHANGED pending
    /\ UNCHANGED <<replica, failovers>>

\* WAIT 1 answered 1: the replica has the write; the client is told "applied".
WaitAcked(a) ==
    /\ a \in pending /\ replica.gen >= a.gen
    /\ pending' = pending \ {a}
    /\ Ack(a.pod, a.gen)
    /\ UNCHANGED <<primary, replica, failovers>>

\* WAIT timed out (answered 0): the client reports "unknown" and does not use the generation.
WaitTimedOut(a) ==
    /\ a \in pending
    /\ pending' = pending \ {a}
    /\ UNCHANGED <<primary, replica, held, lastAcked, monoOk, failovers>>

\* Asynchronous replication catches the replica up with the primary.
Replicate ==
    /\ replica # primary
    /\ replica' = primary
    /\ UNCHANGED <<primary, pending, held, lastAcked, monoOk, failovers>>

\* ops/release_c: compare-and-delete by owner and generation on the primary; p stops fencing either way.
Release(p) ==
    /\ held[p] # 0
    /\ primary' = IF primary.lease = [owner |-> p, gen |-> held[p]] THEN [primary EXCEPT !.lease = Free] ELSE primary
    /\ held' = [held EXCEPT ![p] = 0]
    /\ UNCHANGED <<replica, pending, lastAcked, monoOk, failovers>>

\* p's lease TTL runs out: its key expires on every node that has it (the TTL is an absolute time),
\* and p stops fencing with it (axiom A1 of the seed: bounded clock drift).
Expire(p) ==
    /\ held[p] # 0 \/ primary.lease.owner = p \/ replica.lease.owner = p
    /\ ~Waiting(p)
    /\ primary' = IF primary.lease.owner = p THEN [primary EXCEPT !.lease = Free] ELSE primary
    /\ replica' = IF replica.lease.owner = p THEN [replica EXCEPT !.lease = Free] ELSE replica
    /\ held' = [held EXCEPT ![p] = 0]
    /\ UNCHANGED <<pending, lastAcked, monoOk, failovers>>

\* The primary fails; its replica is promoted with what it had received. Clients waiting on the old
\* primary get an error: "unknown", the generation is not used.
Failover ==
    /\ failovers < MaxFailovers
    /\ primary' = replica
    /\ pending' = {}
    /\ failovers' = failovers + 1
    /\ UNCHANGED <<replica, held, lastAcked, monoOk>>

Next ==
    \/ \E p \in Pods : Acquire(p) \/ Release(p) \/ Expire(p)
    \/ \E a \in pending : WaitAcked(a) \/ WaitTimedOut(a)
    \/ Replicate
    \/ Failover

Spec == Init /\ [][Next]_vars

\* T1: at most one pod fences with a live lease.
Inv_SingleAuthority == Cardinality({p \in Pods : held[p] # 0}) <= 1

\* T2: every generation told to a client exceeds every one told before it: none is issued twice.
Inv_Monotonic == monoOk
=============================================================================
