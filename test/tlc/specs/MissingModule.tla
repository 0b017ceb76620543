---- MODULE MissingModule ----
\* Test data (test/tlc/fixtures/missing-module.out): SANY cannot find a module it EXTENDS. Issue 25:
\* the message lost its end ("imported in module MissingModule").
EXTENDS Naturals, NoSuchModule
VARIABLE x
Init == x = 0
Next == x' = x
====
