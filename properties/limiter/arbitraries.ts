/**
 * fast-check generators for the limiter properties: two bucket specs (keys A and B), their initial
 * states, and a short sequence of calls (A, B, A→B, B→A) interleaved with time advances, host clock
 * jumps and (when the topology allows it) calls whose reply is lost.
 *
 * Replayability: the script reads Valkey TIME, so real milliseconds always pass between the case's
 * setup and its calls (ε, unknown, different on a replay). Every generated quantity lies on a grid
 * that makes each DECISION (allow/deny, bucket expired or kept) the same for every ε in
 * [1, CASE_TIME_BOUND_MS] — see docs/limiter.md "Why real elapsed time cannot flip a decision".
 * `timeGridViolations` states the grid; a test holds every generated case to it.
 */
import fc from 'fast-check';
import { TOKEN } from '../../models/limiter/index.js';
import type { BucketSpecInput } from '../../src/systems/limiter/index.js';

export type Order = 'A' | 'B' | 'AB' | 'BA';

export type InitialState =
  | { readonly kind: 'absent' | 'wrongtype' | 'corrupt' }
  /** ageMs < 0: ts ahead of server time (its clock stepped back). */
  | { readonly kind: 'bucket'; readonly tokens: number; readonly ageMs: number };

export type LimiterCommand =
  | { readonly op: 'call'; readonly order: Order }
  /** A call whose reply the proxy swallows after the server executed it. */
  | { readonly op: 'drop-call'; readonly order: Order }
  /** Time passes (buckets age by ms; an idle bucket may expire). */
  | { readonly op: 'advance'; readonly ms: number }
  /** The application host's clock jumps by ms (Valkey's does not). */
  | { readonly op: 'clock-jump'; readonly ms: number };

export interface LimiterCase {
  readonly specs: readonly [BucketSpecInput, BucketSpecInput];
  readonly initial: readonly [InitialState, InitialState];
  readonly commands: readonly LimiterCommand[];
}

/** Every generated age, advance and idle TTL is a multiple of this; so is every slow refill period. */
export const TIME_GRID_MS = 5000;
/** The harness deletes buckets expiring within this margin of server time (harness.ts). */
export const HORIZON_MARGIN_MS = 2000;
/**
 * Real time one case may take (setup to last call, exclusive) with every decision still the one a
 * replay makes: below TIME_GRID_MS (token fractions) and TIME_GRID_MS − HORIZON_MARGIN_MS (expiry).
 */
export const CASE_TIME_BOUND_MS = TIME_GRID_MS - HORIZON_MARGIN_MS;
/** Host clock jumps are at least this large: beyond any TIME bracket inside the bound. */
export const MIN_CLOCK_JUMP_MS = 10_000;

const MAX_CAPACITY = 4;
/**
 * "Fast" refill: more than MAX_CAPACITY tokens per ms, so ANY elapsed millisecond fills the bucket
 * to capacity (and pushes an uncapped refill past it) — what a replay sees is then the same.
 */
export const FAST_REFILL_PER_SECOND = 5000;
/** Slow refill periods (ms per token): multiples of TIME_GRID_MS dividing 10⁶ ms (a whole µtok/ms). */
const SLOW_PERIODS_MS = [5000, 10_000, 25_000, 50_000, 1_000_000] as const;

const isFast = (spec: BucketSpecInput) => spec.refillPerSecond / 1000 > spec.capacity;

/** µtok a bucket with this spec gains per grid step; stored token counts are multiples of it. */
export function tokenStep(spec: BucketSpecInput): number {
  return isFast(spec) ? 1 : Math.round((TOKEN * TIME_GRID_MS * spec.refillPerSecond) / 1000);
}

const specArb: fc.Arbitrary<BucketSpecInput> = fc.record({
  capacity: fc.integer({ min: 1, max: MAX_CAPACITY }),
  refillPerSecond: fc.constantFrom(FAST_REFILL_PER_SECOND, ...SLOW_PERIODS_MS.map((p) => 1000 / p)),
  // Multiples of the grid, ≥ 2 steps: natural time between calls never reaches an expiry; advances do.
  idleTtlMs: fc.constantFrom(10_000, 60_000, 3_600_000),
});

const grid = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min, max }).map((k) => k * TIME_GRID_MS);

function initialArb(spec: BucketSpecInput): fc.Arbitrary<InitialState> {
  const cap = spec.capacity * TOKEN;
  const stepMicro = tokenStep(spec);
  const bucket = fc.record({
    kind: fc.constant('bucket' as const),
    // empty, one step short of a token (a slow bucket's "almost"), one token, full, above capacity, any partial.
    tokens: fc.oneof(
      fc.constantFrom(0, Math.max(0, TOKEN - stepMicro), TOKEN, cap, cap + TOKEN),
      fc.integer({ min: 0, max: Math.floor(cap / stepMicro) }).map((j) => j * stepMicro),
    ),
    ageMs: fc.oneof(fc.constant(0), grid(1, 4), grid(4, 40), fc.constant(50_000_000), grid(-2, -1)),
  });
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: 'absent' as const }) },
    { weight: 10, arbitrary: bucket },
    { weight: 1, arbitrary: fc.constant({ kind: 'wrongtype' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'corrupt' as const }) },
  );
}

const orderArb: fc.Arbitrary<Order> = fc.constantFrom('A', 'B', 'AB', 'BA', 'AB', 'BA');

function commandArb(faults: boolean): fc.Arbitrary<LimiterCommand> {
  const day = 86_400_000;
  const hour = 3_600_000;
  const arms: fc.WeightedArbitrary<LimiterCommand>[] = [
    { weight: 8, arbitrary: orderArb.map((order) => ({ op: 'call' as const, order })) },
    { weight: 3, arbitrary: fc.oneof(grid(1, 4), grid(4, 24), grid(24, 1000)).map((ms) => ({ op: 'advance' as const, ms })) },
    { weight: 1, arbitrary: fc.constantFrom(-day, -hour, -MIN_CLOCK_JUMP_MS, MIN_CLOCK_JUMP_MS, hour, day).map((ms) => ({ op: 'clock-jump' as const, ms })) },
  ];
  if (faults) arms.push({ weight: 1, arbitrary: orderArb.map((order) => ({ op: 'drop-call' as const, order })) });
  return fc.oneof(...arms);
}

/** `faults`: include drop-call commands (needs a drop proxy in front of a standalone node). */
export function limiterCaseArb(faults: boolean): fc.Arbitrary<LimiterCase> {
  return fc.tuple(specArb, specArb).chain(([a, b]) =>
    fc.record({
      specs: fc.constant([a, b] as const),
      initial: fc.tuple(initialArb(a), initialArb(b)),
      commands: fc.array(commandArb(faults), { minLength: 1, maxLength: 8 }),
    }),
  );
}

/** Why a case is off the time grid (empty: every decision is stable within CASE_TIME_BOUND_MS). */
export function timeGridViolations(c: LimiterCase): string[] {
  const out: string[] = [];
  const onGrid = (ms: number) => ms % TIME_GRID_MS === 0;
  c.specs.forEach((s, k) => {
    const periodMs = 1000 / s.refillPerSecond;
    if (!(isFast(s) || (Number.isInteger(periodMs) && onGrid(periodMs) && (TOKEN * TIME_GRID_MS) % periodMs === 0))) out.push(`spec ${k}: refill period ${periodMs} ms`);
    if (!onGrid(s.idleTtlMs) || s.idleTtlMs < 2 * TIME_GRID_MS) out.push(`spec ${k}: idle TTL ${s.idleTtlMs} ms`);
    const init = c.initial[k]!;
    if (init.kind === 'bucket') {
      if (!onGrid(init.ageMs)) out.push(`key ${k}: age ${init.ageMs} ms`);
      if (init.tokens % tokenStep(s) !== 0) out.push(`key ${k}: ${init.tokens} µtok is not a multiple of ${tokenStep(s)}`);
    }
  });
  for (const cmd of c.commands) {
    if (cmd.op === 'advance' && (!onGrid(cmd.ms) || cmd.ms <= 0)) out.push(`advance ${cmd.ms} ms`);
    if (cmd.op === 'clock-jump' && Math.abs(cmd.ms) < MIN_CLOCK_JUMP_MS) out.push(`clock jump ${cmd.ms} ms`);
  }
  return out;
}
