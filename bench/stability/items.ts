import { PACKAGES } from '../../src/registry/systems.js';
import { importPackageModule } from '../package-module.js';

/**
 * What the stability benchmark repeats ("a gate nobody turns off"): every real-time row and drill,
 * whose verdict depends on real time, and the interruption of every long command. The generic
 * commands' items are here; a system's own are in bench/<package>/stability.ts (`items`), found
 * through the registry.
 */
export interface Sandbox {
  /** A folder of this run, removed with it (verify's --out). */
  readonly dir: string;
}

export interface RunItem {
  readonly kind: 'run';
  readonly name: string;
  readonly argv: (s: Sandbox) => readonly string[];
  readonly hardLimitMs: number;
}

export interface InterruptItem {
  readonly kind: 'interrupt';
  readonly name: string;
  readonly argv: (s: Sandbox) => readonly string[];
  readonly hardLimitMs: number;
  /** The signal goes this long (at most; seeded) after the command's first valkey-server appears. */
  readonly maxDelayMs: number;
}

/** A test file run alone (`vitest run FILE`, every tier): it passes when vitest exits 0. */
export interface TestsItem {
  readonly kind: 'tests';
  readonly name: string;
  readonly file: string;
}

export type StabilityItem = RunItem | InterruptItem | TestsItem;

const MIN = 60_000;

export const run = (name: string, argv: readonly string[], hardLimitMs = 5 * MIN): RunItem => ({ kind: 'run', name, argv: () => argv, hardLimitMs });
export const testFile = (file: string): TestsItem => ({ kind: 'tests', name: file, file });
export const interrupt = (name: string, argv: (s: Sandbox) => readonly string[], maxDelayMs = 3_000): InterruptItem => ({ kind: 'interrupt', name, argv, hardLimitMs: 10 * MIN, maxDelayMs });

const GENERIC: readonly StabilityItem[] = [
  interrupt('stop topology start', () => ['topology', 'start'], 500),
  interrupt('stop conform', () => ['conform']),
  interrupt('stop mutants impl', () => ['mutants', '--layer', 'impl']),
  interrupt('stop verify', (s) => ['verify', '--allow-not-run', 'tlc', '--out', s.dir]),
  interrupt('stop trace replay', () => ['trace', 'replay', 'test/report/fixtures/conform-M1.trace.json'], 500),
];

/** Every package's items (its rows and drills first), then the generic commands' interruptions. */
export async function stabilityItems(): Promise<StabilityItem[]> {
  const own: StabilityItem[] = [];
  for (const p of PACKAGES) {
    const m = await importPackageModule<{ items: readonly StabilityItem[] }>(p.name, 'stability');
    if (m) own.push(...m.items);
  }
  return [...own.filter((i) => i.kind === 'run'), ...GENERIC, ...own.filter((i) => i.kind === 'interrupt')];
}
