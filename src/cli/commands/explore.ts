import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs } from '../../core/args.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck explore [--system NAME]... [--const NAME=VALUE]... [--mutant ID] [--limit N] [--json]

Explores every reachable state of each system's XState twin (models/<system>/) breadth-first over the
machine's own transition function, checks every invariant of the spec on each, and reports distinct
states, states generated (TLC's sense: the initial states plus one successor per enabled action
instance), transitions, one verdict per invariant, and the time. A broken invariant gets its shortest
counterexample, printed step by step and saved as the system's trace (fencecheck.trace/2) under
reports/traces/ (\`fencecheck trace show|replay FILE\`).

Options:
  --system NAME     a system with a model (repeatable, or all; default all)
  --const N=V       a TLA+ constant of the one --system chosen, as TLC reads it (e.g. --const Pods=4
                    --const MaxGen=6 for fencing; default: the spec's base config)
  --mutant ID       explore a model mutant's machine instead (its model patch from the manifest)
  --limit N         give up after N transitions per system (default 20000000): reported as not run
  --json            print a StageReport (fencecheck.stage/1)

Exit codes: 0 every invariant holds · 1 an invariant is broken · 2 not run (limit reached) ·
3 an unknown mutant or a patch that cannot be applied · 64 usage`;

export const command: Command = {
  name: 'explore',
  summary: 'explore every reachable state of each XState twin and check every invariant',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      system: { type: 'string', multiple: true },
      const: { type: 'string', multiple: true },
      limit: { type: 'string' },
      mutant: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const limit = intOption(values, 'limit', { min: 1 });
    const { exploreStage } = await import('../../stages/explore.js');
    return runAndPrint('explore', { json: values.json, human: (r) => r.status === 'not-run' && process.stderr.write(`fencecheck explore: not run: ${r.reason}\n`) }, (io) =>
      exploreStage(
        {
          ...(values.system ? { systems: values.system } : {}),
          ...(values.const ? { constants: values.const } : {}),
          ...(values.mutant !== undefined ? { mutant: values.mutant } : {}),
          ...(limit !== undefined ? { limit } : {}),
        },
        io,
      ),
    );
  },
};
