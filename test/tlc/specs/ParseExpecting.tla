---- MODULE ParseExpecting ----
\* Test data (test/tlc/fixtures/parse-expecting.out): a parse error whose "Was expecting" line comes
\* before "Encountered"; both, and where the definition began, belong in the message.
EXTENDS Naturals
VARIABLE x
Init == x =
Next == x' = x
====
