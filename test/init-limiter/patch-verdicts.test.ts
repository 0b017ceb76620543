/**
 * Six small init-limiter bugs written as patch files (test/fixtures/patches/init-limiter/), each
 * judged by `conform --patch`, `mutants --patch` and the impl layer at one stream, one poll and one
 * slot (37 states, 777 attempts a tour): killed by the check each breaks — Conformance (the write
 * slack doubled: a departure that keeps every invariant; a shed stream left open, which
 * `--safety-only`'s every-invariant tour kills first by LimiterCounters — /metrics counts a shed
 * the client never saw closed — before its Inv_ShedClosed), ShedRetryAfter (Retry-After in milliseconds: the
 * limiter keeps no expiring keys, how long a shed client waits is its nearest kind of TTL),
 * ClientDataSet (a live delta written twice) —, equivalent for a reworded logger, survived for a
 * charset added to every JSON reply (only what the client received shows it).
 */
import { describePatchSet } from '../support/patch-set.js';

describePatchSet({
  system: 'init-limiter',
  folder: 'test/fixtures/patches/init-limiter',
  constants: { Streams: '1', Polls: '1', MaxConcurrent: '1', MaxQueued: '0', Chunks: '1', PollChunks: '1' },
  bugs: {
    'slack-doubled': 'killed by Conformance',
    'retry-after-millis': 'killed by ShedRetryAfter',
    'delta-sent-twice': 'killed by ClientDataSet',
    'shed-keeps-connection': 'killed by Conformance',
    'logger-reworded': 'equivalent',
    'poll-charset': 'survived',
  },
  safety: { departs: ['slack-doubled', /^departs from the model at Tick after \d+ steps; every invariant held/m], invariant: ['shed-keeps-connection', 'LimiterCounters'] },
  timeoutMs: 1_200_000,
});
