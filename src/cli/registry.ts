import type { Command } from '../core/command.js';

/**
 * Every subcommand and the module that implements it. Modules load lazily so that a command's
 * dependencies (ioredis, xstate, Java probing) cost nothing for the others.
 */
export const commandModules: Readonly<Record<string, () => Promise<{ command: Command }>>> = {
  topology: () => import('./commands/topology.js'),
  slot: () => import('./commands/slot.js'),
  tlc: () => import('./commands/tlc.js'),
  evidence: () => import('./commands/evidence.js'),
  explore: () => import('./commands/explore.js'),
  systems: () => import('./commands/systems.js'),
  parity: () => import('./commands/parity.js'),
  diagram: () => import('./commands/diagram.js'),
  mutants: () => import('./commands/mutants.js'),
  props: () => import('./commands/props.js'),
  conform: () => import('./commands/conform.js'),
  gate: () => import('./commands/gate.js'),
  limiter: () => import('./commands/limiter.js'),
  trace: () => import('./commands/trace.js'),
  verify: () => import('./commands/verify.js'),
  g2: () => import('./commands/g2.js'),
  failover: () => import('./commands/failover.js'),
  diff: () => import('./commands/diff.js'),
  bench: () => import('./commands/bench.js'),
  'lua-check': () => import('./commands/lua-check.js'),
  pause: () => import('./commands/pause.js'),
};
