/**
 * The suite's two tiers (docs/testing.md, "Two tiers"). `npm test` runs the quick tier: every
 * engine and every check shown able to fail, on small inputs, in a few minutes on a loaded two-core
 * machine. `npm run test:deep` runs the files below: the same checks again at full size (whole
 * default tours, every CLI command with a secret, every bad-input case as its own process, long
 * runs with real deadlines), each costing tens of seconds to minutes. CI (`.ci/run`) runs both;
 * `npm run test:all` is both in one vitest run.
 *
 * A path here that names no file is a test failure (test/architecture/tiers.test.ts), so a renamed
 * deep file can't slip back into the quick tier unnoticed.
 */
export const DEEP_FILES: readonly string[] = [
  // The gate reading a real fleet end to end: ~20 CLI runs beside a real Prometheus (90 s); the fleet
  // rules' witnesses (test/fencing/gate/fleet-rules.test.ts) stay quick.
  'test/fencing/gate/fleet-cli.test.ts',
  // The migration rehearsal: real pods, Valkey and Prometheus through the whole migration (≈2 min).
  'test/fencing/rollout/rehearsal.test.ts',
  // The rehearsal's observed traces judged by TLC: the real scripts accepted, a broken renew rejected (≈4 min loaded).
  'test/fencing/rollout/trace-judged.test.ts',
  // Every command with a password in its endpoint, and verify's reports with one (≈160 s).
  'test/valkey/secrets-outputs.test.ts',
  // A user's patch through the real CLI: three tours per run (≈150 s).
  'test/cli/patch.test.ts',
  // Six small bugs per system with a tour as patch files, each through conform --patch, mutants --patch
  // and the impl layer (fencing 14.5 min on two loaded cores before the impl layer's path; pause and
  // the init limiter at one replica / one stream, several minutes each).
  'test/fencing/tour/patch-verdicts.test.ts',
  'test/pause/patch-verdicts.test.ts',
  'test/pause/patch-command.test.ts',
  'test/init-limiter/patch-verdicts.test.ts',
  // Every destructive path refused on an endpoint the harness does not own, props on it (≈120 s).
  'test/valkey/external-safety.test.ts',
  // Every case of the bad-input catalogue as its own CLI process, 242 of them (≈110 s).
  'test/cli/bad-input.test.ts',
  // The impl layer on worker processes with their own Valkey, and its shards (≈70 s).
  'test/mutants/shard-workers.test.ts',
  // The init limiter's seeded long runs: herds, real deadlines (≈60 s).
  'test/init-limiter/long-run.test.ts',
  // The fencing tour at its default bound: the small bugs, M1–M9 in their real graphs, the whole tour (≈105 s).
  'test/fencing/tour/mutants.test.ts',
  'test/fencing/tour/tour.test.ts',
  // TLS endpoints: handshakes, refused certificates, TLS beside plain throughput (≈40 s).
  'test/valkey/tls.test.ts',
  // The fencing twin's search at the base bounds for every mutant (≈30 s).
  'test/fencing/model/bfs.test.ts',
  // Faults under the property runs and the door's kill drill (≈55 s).
  'test/faults/props-faults.test.ts',
  'test/faults/door-kill.test.ts',
  // ACL users per command, and the timeouts of every client path (≈45 s).
  'test/valkey/acl.test.ts',
  'test/valkey/timeouts.test.ts',
  // Real tours' traces of Conformance, TTL and read-side findings replayed on real Valkey, one CLI run each (≈60 s).
  'test/trace/replay-tour-findings.test.ts',
  // verify's traces for every failing stage (≈20 s).
  'test/verify/traces.test.ts',
  // The fencing property runs at their test size (verify's props stage runs them larger; checks-fire stays quick) (≈23 s).
  'properties/fencing/fencing.props.test.ts',
  // The pause snapshot's impl mutants P1–P7 on real Valkey (verify's mutants:impl judges them too;
  // the impl runner stays quick through failover's and the init limiter's) (≈15 s).
  'test/pause/impl-mutants.test.ts',
  // The pause tour with one invariant alone on the unpatched code, at one replica and verify's bound (≈70 s).
  'test/pause/tour-invariant-mode.test.ts',
  // A user's limiter patch judged by limiter --patch and mutants --patch: six CLI runs, each the unpatched checks then the patched (≈90 s).
  'test/limiter/patch-verdict.test.ts',
  // The limiter's mutants on standalone and cluster (≈20 s).
  'test/limiter/mutants.test.ts',
  // The real build on a copy of the project, and the compiled CLI it makes (≈60 s).
  'test/cli/build-copy.test.ts',
  // The signal census, one signal per long command, each at a seeded moment (≈3 min).
  'test/cleanup/signal-census.test.ts',
];

/** Which tier a run takes: FENCECHECK_TESTS=quick (the default), deep or all. */
export type Tier = 'quick' | 'deep' | 'all';

export function tierOf(value: string | undefined): Tier {
  if (value === undefined || value === '' || value === 'quick') return 'quick';
  if (value === 'deep' || value === 'all') return value;
  throw new Error(`FENCECHECK_TESTS must be quick, deep or all, got '${value}'`);
}
