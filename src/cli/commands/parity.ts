import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs } from '../../core/args.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck parity [--system NAME]... [--show N] [--json]

Compares each system's XState twin with its TLA+ spec, on the bounds TLC ran (the base config):
  1. the reachable states: every twin state as its canonical key against TLC's state list in the
     committed evidence (evidence/tlc/<system>/base.states.txt): same set;
  2. the state graph: every (state, action, successor) of the twin against TLC's
     (-dump dot,actionlabels; base.edges.txt), self-loops included; labels compared where the system's
     labels are TLC's (fencing), else which state leads to which; and TLC's "states generated" equal
     to the twin's initial states plus transitions;
  3. the action alphabet: the operators of the spec's Next against the twin's events (where the
     system lists them);
  4. the system's own tables (fencing: TLA+ action ↔ XState event ↔ Lua script / gate step,
     invariant ↔ model check ↔ property, named guard ↔ spec ↔ implementation).

Options:
  --system NAME   a system with a model (repeatable, or all; default all)
  --show N        differences to print per side (default 5)
  --json          print a StageReport (fencecheck.stage/1)

Exit codes: 0 every state set, graph and alphabet is equal · 1 one differs · 2 not run: the TLC
evidence is missing or stale (the reason says which and how to refresh it) · 64 usage`;

export const command: Command = {
  name: 'parity',
  summary: 'compare each XState twin with TLC: same reachable states, same state graph, same actions',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, { system: { type: 'string', multiple: true }, show: { type: 'string' }, json: { type: 'boolean', default: false } });
    const show = intOption(values, 'show', { min: 0, max: 100_000, default: 5 });
    const { parityStage } = await import('../../stages/parity.js');
    return runAndPrint('parity', { json: values.json, human: (r) => (r.status === 'passed' ? process.stdout.write(`${r.summary}\n`) : process.stderr.write(`fencecheck ${r.summary}\n`)) }, (io) =>
      parityStage({ ...(values.system ? { systems: values.system } : {}), show, tables: !values.json }, io),
    );
  },
};
