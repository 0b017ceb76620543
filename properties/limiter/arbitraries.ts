/**
 * fast-check generators for the limiter properties: two bucket specs (keys A and B), their initial
 * states, and a short sequence of calls (A, B, A→B, B→A) interleaved with time advances, host clock
 * jumps and (when the topology allows it) calls whose reply is lost.
 */
import fc from 'fast-check';
import { TOKEN } from '../../models/limiter/index.js';
import type { BucketSpecInput } from '../../src/limiter/index.js';

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

const specArb: fc.Arbitrary<BucketSpecInput> = fc.record({
  capacity: fc.integer({ min: 1, max: 4 }),
  refillPerSecond: fc.constantFrom(0.001, 0.5, 1, 20, 1000),
  // ≥ 10 s: natural time between calls never reaches an expiry; advances do.
  idleTtlMs: fc.constantFrom(10_000, 60_000, 3_600_000),
});

function initialArb(capacity: number): fc.Arbitrary<InitialState> {
  const cap = capacity * TOKEN;
  const bucket = fc.record({
    kind: fc.constant('bucket' as const),
    tokens: fc.oneof(fc.constantFrom(0, TOKEN - 1, TOKEN, cap, cap + TOKEN), fc.integer({ min: 0, max: cap })),
    ageMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 3000, max: 200_000 }), fc.constant(50_000_000), fc.integer({ min: -5000, max: -1 })),
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
  const arms: fc.WeightedArbitrary<LimiterCommand>[] = [
    { weight: 8, arbitrary: orderArb.map((order) => ({ op: 'call' as const, order })) },
    { weight: 3, arbitrary: fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2000, max: 120_000 }), fc.integer({ min: 120_000, max: 5_000_000 })).map((ms) => ({ op: 'advance' as const, ms })) },
    { weight: 1, arbitrary: fc.constantFrom(-86_400_000, -3_600_000, -1500, 1500, 3_600_000, 86_400_000).map((ms) => ({ op: 'clock-jump' as const, ms })) },
  ];
  if (faults) arms.push({ weight: 1, arbitrary: orderArb.map((order) => ({ op: 'drop-call' as const, order })) });
  return fc.oneof(...arms);
}

/** `faults`: include drop-call commands (needs a drop proxy in front of a standalone node). */
export function limiterCaseArb(faults: boolean): fc.Arbitrary<LimiterCase> {
  return fc.tuple(specArb, specArb).chain(([a, b]) =>
    fc.record({
      specs: fc.constant([a, b] as const),
      initial: fc.tuple(initialArb(a.capacity), initialArb(b.capacity)),
      commands: fc.array(commandArb(faults), { minLength: 1, maxLength: 8 }),
    }),
  );
}
