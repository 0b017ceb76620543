---- MODULE Deadlock ----
\* Test data for the TLC output parser (test/tlc/fixtures/deadlock-small.out): the counter stops at 2,
\* where no action is enabled, so TLC (deadlock checking on, its default) reports a deadlock.
\* Config*.cfg reuse it with broken configs; Continue.cfg checks Below1 with -continue, which both
\* later states violate (two error traces).
EXTENDS Naturals
VARIABLE n

Init == n = 0
Next == n < 2 /\ n' = n + 1
TypeOK == n \in 0..2
Below1 == n < 1
====
