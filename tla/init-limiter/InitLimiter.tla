------------------------------ MODULE InitLimiter ------------------------------
(***************************************************************************)
(* Seed 004, "Apply the init-concurrency limiter to polling and streaming". *)
(* One shared limiter (MaxConcurrent slots, MaxQueued waiters) in front of  *)
(* the initialization deliveries of a relay: server-sent-event streams     *)
(* (Streams) and polls on kept-alive connections (Polls). A store with      *)
(* versions (Publish makes a delta); per-basis single-flight store reads    *)
(* ("peek") for streams; serialization shared between callers of the same  *)
(* store version; the slot acquired before serializing and held across the *)
(* send; a write deadline from a throughput floor, armed only between the   *)
(* start and the end of a delivery; clients that read steadily, stall, or  *)
(* disconnect; time as ticks.                                               *)
(*                                                                          *)
(* Mutation without editing the spec: each mutation point is a named       *)
(* Kept("<name>"); a mutant config puts that name into the constant Dropped *)
(* (tla/init-limiter/mutants/I*.cfg).                                       *)
(***************************************************************************)
EXTENDS Naturals, Integers, FiniteSets

CONSTANTS
    Streams,        \* clients of the streaming endpoint (model values)
    Polls,          \* clients polling over one kept-alive connection each (model values)
    MaxConcurrent,  \* slots of the shared limiter
    MaxQueued,      \* callers it lets wait for a slot (0: no queue)
    MaxVersion,     \* the store's last version (it starts at 1; every Publish adds one)
    Chunks,         \* chunks of a stream's full basis (a steady reader takes one per tick)
    PollChunks,     \* chunks of a poll's full reply
    None,           \* no write deadline on the connection
    LimiterOn,      \* the limiter is configured (FALSE: the default deployment, the relay's base replay)
    FDv1,           \* the streams of the FDv1 endpoint (/all: one put event, no basis); the others are FDv2
    Dropped         \* mutation points switched off ({} in the base model)

MutationPoints == {
    "Stream_HoldSlotAcrossSend", "Stream_CaptureDoneBeforeClose", "Serialize_KeyedByVersion",
    "Peek_KeyedByBasis", "Serialize_ReadsAfterAdmit", "Poll_ClearDeadlineOnReturn",
    "Deadline_ScopedToDelivery", "Deadline_ThroughputFloor", "Stream_NoIdleTimeout",
    "Shed_ClosesConnection", "UpToDate_NoSlot", "Deadline_ReachesSocket", "Deadline_OnlyWhenEnabled"}
ASSUME Dropped \subseteq MutationPoints
ASSUME LimiterOn \in BOOLEAN /\ FDv1 \subseteq Streams
ASSUME Streams \cap Polls = {} /\ MaxConcurrent >= 1 /\ MaxQueued >= 0 /\ MaxVersion >= 1 /\ Chunks >= 1 /\ PollChunks >= 1
Kept(name) == name \notin Dropped

\* ---- the mutation points: each is Kept(<its name>), read here only; the design keeps all ----

Stream_HoldSlotAcrossSend == Kept("Stream_HoldSlotAcrossSend")           \* a stream's slot is held across the send
Stream_CaptureDoneBeforeClose == Kept("Stream_CaptureDoneBeforeClose")   \* the producer captures done before closing the batch
Serialize_KeyedByVersion == Kept("Serialize_KeyedByVersion")             \* the serialization flight is keyed by the store version
Peek_KeyedByBasis == Kept("Peek_KeyedByBasis")                           \* the peek flight is keyed by the client's basis
Serialize_ReadsAfterAdmit == Kept("Serialize_ReadsAfterAdmit")           \* the basis is read after admission (after any queue wait)
Poll_ClearDeadlineOnReturn == Kept("Poll_ClearDeadlineOnReturn")         \* a poll's deadline is cleared when its handler returns
Deadline_ScopedToDelivery == Kept("Deadline_ScopedToDelivery")           \* a stream's deadline is cleared at the end of its basis
Deadline_ThroughputFloor == Kept("Deadline_ThroughputFloor")             \* the deadline is re-armed per chunk (a floor), not once per write
Stream_NoIdleTimeout == Kept("Stream_NoIdleTimeout")                     \* the send loop has no idle timeout
Shed_ClosesConnection == Kept("Shed_ClosesConnection")                   \* a shed stream's connection is closed
UpToDate_NoSlot == Kept("UpToDate_NoSlot")                               \* an up-to-date reply takes no slot
Deadline_ReachesSocket == Kept("Deadline_ReachesSocket")                 \* the deadline reaches the socket (every writer wrapper unwraps)
Deadline_OnlyWhenEnabled == Kept("Deadline_OnlyWhenEnabled")             \* a delivery's deadline is armed only when the limiter is enabled

Clients == Streams \cup Polls

VARIABLES
    version,    \* the store's current version
    cl,         \* cl[c]: client c's connection and request (a record, see Client)
    holders,    \* the clients holding a slot
    inUse,      \* the limiter's count of slots in use (released separately from holders)
    queue,      \* the clients waiting for a slot
    observed    \* what clients saw that a correct server never shows (history, see Observations)

vars == <<version, cl, holders, inUse, queue, observed>>

(* A client's record. phase:
     "off"         no request (a poll's kept-alive connection stays open: dl may outlive a request)
     "peeking"     stream: in the peek flight of its key (pv is the flight's read)
     "queued"      waiting for a slot
     "serializing" stream: holds a slot, in the serialization flight of its key
     "sending"     the full delivery is being written (written chunks so far)
     "live"        stream: initialized, receives deltas and heartbeats
     "partial"     stream: open, subscribed, its basis abandoned half-written (a mutant's)
     "stranded"    stream: shed but left open, uninitialized (a mutant's)
   basis: the version the client holds (0: none); pv: the peeked version; adm: the store's version
   when the client was admitted; asked: the version it asked the serialization for; sent: the
   version the serialization gave it; dl: ticks left on the connection's write deadline (-1: passed);
   captured: the stream producer holds the live done channel of its send. *)
Max2(a, b) == IF a >= b THEN a ELSE b
Phases == {"off", "peeking", "queued", "serializing", "sending", "live", "partial", "stranded"}
Versions == 0..MaxVersion
Client == [phase : Phases, basis : Versions, pv : Versions, adm : Versions, asked : Versions, sent : Versions,
           written : 0..Max2(Chunks, PollChunks) - 1, reading : {"steady", "stalled"}, dl : {None, -1, 0, 1}, captured : BOOLEAN]
Observations == {"cutSteady", "cutLive", "cutKeptAlive", "tornBasis", "shedUpToDate"}

Rest == [phase |-> "off", basis |-> 0, pv |-> 0, adm |-> 0, asked |-> 0, sent |-> 0,
         written |-> 0, reading |-> "steady", dl |-> None, captured |-> FALSE]
\* A full delivery starts: the write deadline is armed (one tick per chunk: the throughput floor),
\* only when the limiter is enabled (disabled: the base behaviour, no deadline).
Sending == [Rest EXCEPT !.phase = "sending", !.dl = IF LimiterOn \/ ~Deadline_OnlyWhenEnabled THEN 1 ELSE None]

\* A client's wire format: FDv1 streams ask with no basis (their one put event is always full).
Format(c) == IF c \in FDv1 THEN "v1" ELSE "v2"
Bases(c) == IF c \in FDv1 THEN {0} ELSE {0, version}
\* A full delivery may start now: a free slot, or no limiter at all.
SlotFree == ~LimiterOn \/ inUse < MaxConcurrent

Min(S) == CHOOSE x \in S : \A y \in S : x <= y

TypeOK ==
    /\ version \in 1..MaxVersion
    /\ cl \in [Clients -> Client]
    /\ holders \subseteq Clients
    /\ inUse \in Int
    /\ queue \subseteq Clients
    /\ observed \subseteq Observations

Init ==
    /\ version = 1
    /\ cl = [c \in Clients |-> Rest]
    /\ holders = {}
    /\ inUse = 0
    /\ queue = {}
    /\ observed = {}

\* The limiter gives back the slots of the clients in S that hold one, each exactly once.
Release(S) ==
    /\ holders' = holders \ S
    /\ inUse' = inUse - Cardinality(S \cap holders)

\* ---- the peek: the store read, single-flighted per basis ----

\* The key names the format too (an FDv1 stream asks with no basis, an FDv2 one with basis 0).
PeekKey(c, b) == IF Peek_KeyedByBasis THEN <<Format(c), b>> ELSE <<"any", -1>>   \* <<"any", -1>>: the one fixed key of the mutant
\* A stream asking with basis b joins the flight of its key while a caller of it still waits
\* (and gets that flight's read), or starts one: the store read now.
PeekRead(c, b) ==
    LET flight == {cl[d].pv : d \in {d \in Streams \ {c} : cl[d].phase = "peeking" /\ PeekKey(d, cl[d].basis) = PeekKey(c, b)}}
    IN IF flight = {} THEN version ELSE Min(flight)

\* ---- admission and serialization ----

SerKey(c, v) == IF Serialize_KeyedByVersion THEN <<Format(c), v>> ELSE <<"any", -1>>
\* The version the serialization is asked for: the store read after admission, or the peek's. With
\* the limiter disabled the base replay serializes its peek (no wait: the feed follows from it).
Asked(c) == IF LimiterOn /\ Serialize_ReadsAfterAdmit THEN version ELSE cl[c].pv
\* Callers of the same key share one serialization: a joiner gets the flight's result.
Serialized(c, v) ==
    LET flight == {cl[d].sent : d \in {d \in Streams \ {c} : cl[d].phase = "serializing" /\ SerKey(d, cl[d].asked) = SerKey(c, v)}}
    IN IF flight = {} THEN v ELSE Min(flight)

\* A stream admitted serializes (the slot is taken BEFORE serializing); a poll starts its reply.
\* adm: the version its live deltas follow from (the store's at admission; the peek's, limiter disabled).
Admitted(c) ==
    IF c \in Streams
      THEN [Rest EXCEPT !.phase = "serializing", !.basis = cl[c].basis, !.adm = IF LimiterOn THEN version ELSE cl[c].pv,
                        !.asked = Asked(c), !.sent = Serialized(c, Asked(c))]
      ELSE Sending

\* Shed: a stream's connection is closed (the client reconnects with backoff); a poll is answered 503.
Shed(c) ==
    IF c \in Polls THEN cl[c]
    ELSE IF Shed_ClosesConnection THEN Rest ELSE [Rest EXCEPT !.phase = "stranded"]

\* A full delivery asks the limiter: a free slot, else a place in the queue, else shed. Disabled,
\* there is no limiter to ask: the delivery starts, no slot taken.
Acquire(c) ==
    IF SlotFree
      THEN /\ cl' = [cl EXCEPT ![c] = Admitted(c)]
           /\ IF LimiterOn THEN holders' = holders \cup {c} /\ inUse' = inUse + 1 ELSE UNCHANGED <<holders, inUse>>
           /\ UNCHANGED <<queue, observed>>
    ELSE IF Cardinality(queue) < MaxQueued
      THEN \* After the wait the store is read again (Serialize_ReadsAfterAdmit): the peek is not kept.
           /\ cl' = [cl EXCEPT ![c] = [Rest EXCEPT !.phase = "queued", !.basis = cl[c].basis, !.dl = cl[c].dl,
                                                   !.pv = IF Serialize_ReadsAfterAdmit THEN 0 ELSE cl[c].pv]]
           /\ queue' = queue \cup {c}
           /\ UNCHANGED <<holders, inUse, observed>>
    ELSE /\ cl' = [cl EXCEPT ![c] = Shed(c)]
         /\ UNCHANGED <<holders, inUse, queue, observed>>

\* ---- streams ----

\* Stream c connects with basis b (none, or the store's current version; FDv1: none) and peeks.
Connect(c, b) ==
    /\ cl[c].phase = "off" /\ b \in Bases(c)
    /\ cl' = [cl EXCEPT ![c] = [Rest EXCEPT !.phase = "peeking", !.basis = b, !.pv = PeekRead(c, b)]]
    /\ UNCHANGED <<version, holders, inUse, queue, observed>>

\* The peek returns to c. Up to date (the peek is its basis): the small reply, no slot, live.
\* Otherwise a full basis: acquire a slot first.
Decide(c) ==
    /\ cl[c].phase = "peeking"
    /\ UNCHANGED version
    /\ IF cl[c].pv = cl[c].basis
         THEN /\ UNCHANGED <<holders, inUse, queue>>
              /\ IF UpToDate_NoSlot \/ SlotFree
                   THEN /\ cl' = [cl EXCEPT ![c] = [Rest EXCEPT !.phase = "live"]]
                        /\ UNCHANGED observed
                   ELSE \* the mutant charges the reply a slot: with none free it is shed
                        /\ cl' = [cl EXCEPT ![c] = Shed(c)]
                        /\ observed' = observed \cup {"shedUpToDate"}
         ELSE Acquire(c)

\* The serialization returns: the producer hands the events to the connection's writer, which arms
\* the write deadline (Begin). The slot stays held across the send; the producer captures the done
\* channel the writer closes at the last byte.
Handoff(c) ==
    /\ cl[c].phase = "serializing"
    /\ cl' = [cl EXCEPT ![c] = [Sending EXCEPT !.captured = Stream_CaptureDoneBeforeClose]]
    /\ IF Stream_HoldSlotAcrossSend THEN UNCHANGED <<holders, inUse>> ELSE Release({c})
    /\ UNCHANGED <<version, queue, observed>>

\* The mutant's producer reads the done channel only after closing the batch: if the writer's
\* end-of-basis flush came first the channel is gone (nil) and the producer waits for a disconnect.
CaptureDone(c) ==
    /\ cl[c].phase = "sending" /\ ~cl[c].captured /\ c \in Streams
    /\ cl' = [cl EXCEPT ![c].captured = TRUE]
    /\ UNCHANGED <<version, holders, inUse, queue, observed>>

\* The mutant's idle timeout in the send loop: a stalled, partly sent basis is abandoned, the
\* producer returns (releasing the slot), the connection stays open and subscribed.
IdleTimeout(c) ==
    /\ ~Stream_NoIdleTimeout
    /\ c \in Streams /\ cl[c].phase = "sending" /\ cl[c].reading = "stalled" /\ cl[c].written >= 1
    /\ cl' = [cl EXCEPT ![c] = [Rest EXCEPT !.phase = "partial"]]
    /\ Release({c})
    /\ UNCHANGED <<version, queue, observed>>

\* ---- polls ----

\* Poll p sends a request with basis b on its kept-alive connection. Up to date: the small reply,
\* no slot. Otherwise a full reply: acquire a slot (queue, or 503). The up-to-date reply and the 503
\* are written at once without a deadline of their own: an expired deadline an earlier request
\* left on the connection makes that write fail, and the connection is cut.
Poll(p, b) ==
    /\ cl[p].phase = "off" /\ b \in {0, version}
    /\ UNCHANGED version
    /\ LET full == b # version
           free == SlotFree
           waits == ~free /\ Cardinality(queue) < MaxQueued
           unarmed == ~full \/ (~free /\ ~waits)
       IN IF unarmed /\ cl[p].dl = -1
            THEN /\ cl' = [cl EXCEPT ![p] = Rest]
                 /\ observed' = observed \cup {"cutKeptAlive"}
                 /\ UNCHANGED <<holders, inUse, queue>>
          ELSE IF ~full
            THEN /\ UNCHANGED <<cl, holders, inUse, queue>>
                 /\ observed' = IF UpToDate_NoSlot \/ free THEN observed ELSE observed \cup {"shedUpToDate"}
          ELSE Acquire(p)

\* ---- both ----

\* A queued caller gets a free slot.
Admit(c) ==
    /\ c \in queue /\ SlotFree
    /\ cl' = [cl EXCEPT ![c] = Admitted(c)]
    /\ queue' = queue \ {c}
    /\ holders' = holders \cup {c}
    /\ inUse' = inUse + 1
    /\ UNCHANGED <<version, observed>>

\* The client stops reading mid-delivery (its socket buffers fill; the write blocks).
Stall(c) ==
    /\ cl[c].phase = "sending" /\ cl[c].reading = "steady"
    /\ cl' = [cl EXCEPT ![c].reading = "stalled"]
    /\ UNCHANGED <<version, holders, inUse, queue, observed>>

\* The client closes its connection: its slot (if any) is released, it leaves the queue.
Disconnect(c) ==
    /\ cl[c] # Rest
    /\ cl' = [cl EXCEPT ![c] = Rest]
    /\ Release({c})
    /\ queue' = queue \ {c}
    /\ UNCHANGED <<version, observed>>

\* The store gets a new version; every live stream is sent its delta.
Publish ==
    /\ version < MaxVersion
    /\ version' = version + 1
    /\ observed' = IF \E c \in Streams : cl[c].phase = "partial" THEN observed \cup {"tornBasis"} ELSE observed
    /\ UNCHANGED <<cl, holders, inUse, queue>>

\* ---- time ----

\* dl is the budget left on the connection's write deadline: 1 = this tick, 0 = spent (the deadline
\* passes at the next tick), -1 = passed. A steady reader takes one chunk per tick; the floor gives
\* each chunk one tick.
Armed(c) == cl[c].dl \in {0, 1}
\* The chunk in progress is written this tick: a steady reader with budget left (or any steady
\* reader when the socket never got the deadline).
\* A delivery with no deadline (limiter disabled) goes on at the reader's pace.
Completes(c) == cl[c].phase = "sending" /\ cl[c].reading = "steady" /\ (cl[c].dl \in {1, None} \/ ~Deadline_ReachesSocket)
\* The deadline passes this tick: a write in progress did not complete within its budget, or a
\* spent deadline left on a connection.
Passes(c) == Armed(c) /\ ~Completes(c) /\ (cl[c].phase = "sending" \/ cl[c].dl = 0)
\* A passing deadline the socket has fails the write in progress: a blocked send, or a live
\* stream's next heartbeat. On an idle poll connection it waits for the next write.
CutAt(c) == Passes(c) /\ Deadline_ReachesSocket /\ cl[c].phase \in {"sending", "live"}
ChunksOf(c) == IF c \in Streams THEN Chunks ELSE PollChunks
Ends(c) == Completes(c) /\ cl[c].written + 1 = ChunksOf(c)

\* The end of a delivery (its last byte written): a stream's end-of-basis flush closes the done
\* channel and clears the deadline, the stream is live; a poll's handler returns, clearing it.
\* Not cleared, the spent deadline stays on the connection.
EndOfDelivery(c) ==
    IF c \in Streams
      THEN [Rest EXCEPT !.phase = "live", !.dl = IF Deadline_ScopedToDelivery \/ cl[c].dl = None THEN None ELSE 0]
      ELSE [Rest EXCEPT !.dl = IF Poll_ClearDeadlineOnReturn \/ cl[c].dl = None THEN None ELSE 0]

\* The floor re-arms the deadline for every chunk; a flat per-write deadline spends one budget on
\* the whole write.
AfterTick(c) ==
    CASE CutAt(c) -> Rest
      [] Ends(c) -> EndOfDelivery(c)
      [] Completes(c) -> [cl[c] EXCEPT !.written = @ + 1, !.dl = IF @ = None THEN None ELSE IF Deadline_ThroughputFloor THEN 1 ELSE 0]
      [] Passes(c) -> [cl[c] EXCEPT !.dl = -1]
      [] OTHER -> cl[c]

\* The slot is released when the delivery's last byte is written (a stream's producer wakes on the
\* done channel it captured; a poll's handler returns) or when a deadline cuts the connection.
ReleasedAt(c) == CutAt(c) \/ (Ends(c) /\ (c \in Polls \/ cl[c].captured))

\* Time passes while a deadline is armed, or (limiter disabled: no deadline) while a delivery is written.
Tick ==
    /\ {c \in Clients : Armed(c) \/ (~LimiterOn /\ cl[c].phase = "sending")} # {}
    /\ cl' = [c \in Clients |-> AfterTick(c)]
    /\ Release({c \in Clients : ReleasedAt(c)})
    /\ observed' = observed
                   \cup (IF \E c \in Clients : CutAt(c) /\ cl[c].phase = "sending" /\ cl[c].reading = "steady" THEN {"cutSteady"} ELSE {})
                   \cup (IF \E c \in Clients : CutAt(c) /\ cl[c].phase = "live" THEN {"cutLive"} ELSE {})
    /\ UNCHANGED <<version, queue>>

Next ==
    \/ \E c \in Streams, b \in Versions : Connect(c, b)
    \/ \E c \in Streams : Decide(c)
    \/ \E p \in Polls, b \in Versions : Poll(p, b)
    \/ \E c \in Clients : Admit(c) \/ Handoff(c) \/ CaptureDone(c) \/ Stall(c) \/ IdleTimeout(c) \/ Disconnect(c)
    \/ Publish
    \/ Tick

Spec == Init /\ [][Next]_vars

\* ---- invariants ----

Delivering(c) == cl[c].phase \in {"serializing", "sending"}

Inv_SlotsBound == inUse <= MaxConcurrent
Inv_QueueBound == Cardinality(queue) <= MaxQueued
\* None released twice (nor lost): the limiter's count is the number of holders.
Inv_ReleasedOnce == inUse = Cardinality(holders)
\* No slot leaked: a slot is held only by a delivery in progress.
Inv_NoLeakedSlot == \A c \in holders : Delivering(c)
\* The slot is held across the actual send.
Inv_SendHoldsSlot == LimiterOn => \A c \in Clients : cl[c].phase = "sending" => c \in holders
\* An up-to-date reply takes no slot: it is never shed for lack of one.
Inv_UpToDateNoSlot == "shedUpToDate" \notin observed
\* A client at the store's current version is never sent a full basis (the peek is never older than its basis).
Inv_UpToDateRecognised == \A c \in Streams : cl[c].phase \in {"queued", "serializing"} => cl[c].basis < version
\* No lost delta: no client is given a basis older than the store's version when it was admitted.
Inv_NoLostDelta == \A c \in Streams : cl[c].phase = "serializing" => cl[c].sent >= cl[c].adm
\* Serialization is shared only between callers of the same store version.
Inv_SerializeOwnVersion == \A c \in Streams : cl[c].phase = "serializing" => cl[c].sent = cl[c].asked
\* No deadline alive outside a delivery.
Inv_DeadlineScoped == \A c \in Clients : cl[c].dl # None => cl[c].phase = "sending"
\* A stalled delivery is cut by its deadline: no delivery outlives it.
Inv_BoundedHold == \A c \in Clients : cl[c].phase = "sending" => cl[c].dl # -1
\* A steady reader above the floor is never cut.
Inv_SteadyNeverCut == "cutSteady" \notin observed
\* A live stream (deltas, heartbeats) is never cut by a deadline.
Inv_LiveNotCut == "cutLive" \notin observed
\* A later request on a kept-alive poll connection is never cut by an earlier request's deadline.
Inv_KeepAliveNotCut == "cutKeptAlive" \notin observed
\* No partly sent basis is completed by a later delta.
Inv_NoTornBasis == "tornBasis" \notin observed
\* A shed stream is closed.
Inv_ShedClosed == \A c \in Streams : cl[c].phase # "stranded"
\* The limiter disabled is the base behaviour: no slot, no queue, no deadline, nothing shed or abandoned.
Inv_OffPassThrough ==
    ~LimiterOn => /\ holders = {} /\ inUse = 0 /\ queue = {}
                  /\ \A c \in Clients : cl[c].dl = None /\ cl[c].phase \notin {"queued", "stranded", "partial"}
=============================================================================
