---- MODULE Values ----
\* Test data for the TLC output parser (test/tlc/fixtures/values.out): the states hold every kind of
\* value TLC prints (an interval, sets, sequences, records, functions written with :> and @@, strings
\* with escapes, model values, nesting), and the invariant breaks after two steps so TLC prints them.
EXTENDS Integers, Sequences, FiniteSets, TLC
CONSTANTS a, b

VARIABLES i, s, q, r, f, g, str, mv, nested, lz

Init ==
  /\ i = 1..3
  /\ s = {}
  /\ q = <<>>
  /\ r = [x |-> 1, y |-> "two"]
  /\ f = (a :> 1 @@ b :> 2)
  /\ g = [n \in 1..2 |-> n * 10]
  /\ str = "plain"
  /\ mv = a
  /\ nested = [k |-> {<<1, "x">>}, m |-> (a :> {a, b}), e |-> {}, t |-> TRUE]
  /\ lz = <<SUBSET {1}, [{1} -> {2}], [u : {1}], (0 :> "z"), "line\nbreak", {1..2}>>

Next ==
  /\ i' = IF Cardinality(s) = 0 THEN 2..5 ELSE 1..0
  /\ s' = s \cup {Cardinality(s) - 1}
  /\ q' = Append(q, [p |-> mv, v |-> -7])
  /\ r' = [r EXCEPT !.x = @ + 1]
  /\ f' = f
  /\ g' = g
  /\ str' = "quote \" backslash \\ end"
  /\ mv' = b
  /\ nested' = [nested EXCEPT !.t = FALSE]
  /\ lz' = lz

Small == Len(q) < 2
====
