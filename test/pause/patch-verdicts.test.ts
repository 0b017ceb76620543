/**
 * Six small pause bugs written as patch files (test/fixtures/patches/pause/), each judged by `conform
 * --patch`, `mutants --patch` and the impl layer at one replica (180 states, 2,052 attempts a tour):
 * killed by the check each breaks — Conformance (a reconcile timer armed once: a departure that
 * keeps every invariant; a hot read that ignores the age bound, whose Inv_FailClosed only
 * `--safety-only` reaches), TTL (the flag written with an expiry: the pause state's nearest kind of
 * TTL rule), HotRead (a read that sends a command) —, equivalent for a reworded SetPaused, survived
 * for an unpause stored as "0" (only the keyspace read back shows it).
 */
import { describePatchSet } from '../support/patch-set.js';

describePatchSet({
  system: 'pause',
  folder: 'test/fixtures/patches/pause',
  constants: { Replicas: '1' },
  bugs: {
    'reconcile-timer-once': 'killed by Conformance',
    'pause-expires': 'killed by TTL',
    'hot-read-asks-valkey': 'killed by HotRead',
    'serves-stale': 'killed by Conformance',
    'set-paused-reworded': 'equivalent',
    'unpause-writes-zero': 'survived',
  },
  safety: { departs: ['reconcile-timer-once', /^departs from the model at Reconcile\(r1\) after \d+ steps; every invariant held/m], invariant: ['serves-stale', 'Inv_FailClosed'] },
  timeoutMs: 1_200_000,
});
