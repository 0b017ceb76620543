---- MODULE Liveness ----
\* Test data for the TLC output parser (test/tlc/fixtures/liveness-*.out): x cycles 0 -> 1 -> 2 -> 0
\* and never reaches 3, so the temporal property Reaches3 fails. With weak fairness TLC's
\* counterexample is a lasso that goes back to state 1 (Back to state); without it, the
\* behaviour stutters in its first state (Stuttering).
EXTENDS Naturals
VARIABLE x

Init == x = 0
Step(k) == x' = (x + k) % 3
Next == Step(1)
Fair == Init /\ [][Next]_x /\ WF_x(Next)
Unfair == Init /\ [][Next]_x

AlwaysSmall == x < 3
Reaches3 == <>(x = 3)
====
