import type { Command } from '../core/command.js';
import { PACKAGES } from '../registry/systems.js';

type CommandModule = () => Promise<{ command: Command }>;

/** fencecheck's own commands, over every system. */
const GENERIC: Readonly<Record<string, CommandModule>> = {
  topology: () => import('./commands/topology.js'),
  slot: () => import('./commands/slot.js'),
  tlc: () => import('./commands/tlc.js'),
  evidence: () => import('./commands/evidence.js'),
  explore: () => import('./commands/explore.js'),
  systems: () => import('./commands/systems.js'),
  parity: () => import('./commands/parity.js'),
  mutants: () => import('./commands/mutants.js'),
  conform: () => import('./commands/conform.js'),
  trace: () => import('./commands/trace.js'),
  tracecheck: () => import('./commands/tracecheck.js'),
  verify: () => import('./commands/verify.js'),
  stage: () => import('./commands/stage.js'),
  diff: () => import('./commands/diff.js'),
  merge: () => import('./commands/merge.js'),
  bench: () => import('./commands/bench.js'),
  'lua-check': () => import('./commands/lua-check.js'),
};

/**
 * Every subcommand and the module that implements it: the generic ones, then each system package's
 * own. Modules load lazily so that a command's dependencies (ioredis, xstate, Java probing) cost
 * nothing for the others.
 */
export const commandModules: Readonly<Record<string, CommandModule>> = {
  ...GENERIC,
  ...Object.fromEntries(PACKAGES.flatMap((p) => Object.entries(p.commands ?? {}))),
};

/** The command a name runs, loaded; undefined for an unknown name. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  const load = commandModules[name];
  if (!load) return undefined;
  try {
    return (await load()).command;
  } catch (err) {
    // A command whose module is not there yet is reported, not crashed on.
    if (err instanceof Error && /Cannot find module|ERR_MODULE_NOT_FOUND/.test(err.message)) return undefined;
    throw err;
  }
}
