---- MODULE LivenessWarning ----
\* Test data (test/tlc/fixtures/liveness-warning.out): a liveness violation whose output also carries
\* a TLC warning — 2259, "the stuttering counterexample may be caused by the absence of a fairness
\* constraint", a code of the config family at severity 3. TLC exits 13. Issue 25: this was read as a
\* config error ("DISAGREES", exit 2).
EXTENDS Naturals
VARIABLE x

Init == x = 0
Next == x' = (x + 1) % 3
Unfair == Init /\ [][Next]_x

SettlesAt1 == <>[](x = 1)
====
