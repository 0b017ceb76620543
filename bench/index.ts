import type { BenchSection } from './section.js';

/** Every benchmark section, in print order. Each module exports `section`. */
export const benchSections: Readonly<Record<string, () => Promise<{ section: BenchSection }>>> = {
  foundation: () => import('./foundation.bench.js'),
  model: () => import('./model.bench.js'),
  props: () => import('./props.bench.js'),
  limiter: () => import('./limiter.bench.js'),
  conform: () => import('./conform.bench.js'),
  verify: () => import('./verify.bench.js'),
  'verify-shards': () => import('./verify-shards.bench.js'),
  gate: () => import('./gate.bench.js'),
  luacheck: () => import('./luacheck.bench.js'),
  g2: () => import('./g2.bench.js'),
  failover: () => import('./failover.bench.js'),
  'cluster-matrix-replica': () => import('./cluster-matrix-replica.bench.js'),
  pause: () => import('./pause.bench.js'),
  stability: () => import('./stability.bench.js'),
  signals: () => import('./signals.bench.js'),
  timing: () => import('./timing.bench.js'),
  'init-limiter': () => import('./init-limiter.bench.js'),
};

/** Sections that run only when named (`npm run bench -- stability`): they take an hour, not minutes. */
export const NAMED_ONLY: readonly string[] = ['stability', 'signals', 'timing', 'verify-shards', 'init-limiter'];
