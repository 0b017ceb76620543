import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { OBSERVED_DIR_ENV, OBSERVED_SUBDIR } from '../../seam/tracecheck/store.js';
import { TRACE_DIR_ENV } from '../../core/trace-dir.js';
import { MODEL_NAMES } from '../../registry/systems.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck tracecheck TRACE... [--observed] [--system NAME]... [--timeout S] [--json]

Trace validation: TLC judges what the real code did. Each TRACE is an observed trace
(fencecheck.observed/1, docs/tracecheck.md): the spec's variables as read from the real system after
every step, unobserved ones left out, and the action each step claims. For each system's traces
fencecheck writes a module that EXTENDS the system's spec and holds the traces as a constant, whose
next-state relation takes a step's claimed action only where every observed variable equals the
next line's value, and runs TLC on it with the base config's constants (every trace of a system in
one run). A trace is accepted when TLC finds a behaviour of the spec that explains every line;
otherwise it is rejected at the first step TLC cannot explain, with the claimed action and the
variables that disagree (what the claimed action gives there, from a second TLC run).
Systems: ${MODEL_NAMES.join(', ')}.

Options:
  --observed       also every trace the sampled runs recorded (${OBSERVED_DIR_ENV}, else ${OBSERVED_SUBDIR}/ in the
                   trace folder: ${TRACE_DIR_ENV}, default reports/traces; verify sets it to its run's own)
  --system NAME    only these systems' traces (repeatable)
  --timeout S      TLC time per run, seconds (default 600)
  --json           print a StageReport (fencecheck.stage/1); details: one verdict per trace

A trace may predict its own verdict (\`predicted\`: the step its run's model expects TLC to reject,
or none): a run under an impl mutant is expected to be rejected where the mutant's code first leaves
the spec, an unpatched run to be accepted.

Exit codes: 0 every trace judged as predicted (accepted, or rejected at its predicted step) · 1 a trace
judged otherwise · 2 not run: no Java or tla2tools.jar, TLC failed, or no traces · 3 bad input (a
file that is no observed trace, an unknown system or variable, TLA+ TLC cannot evaluate) · 64 usage`;
export const command: Command = {
  name: 'tracecheck',
  summary: 'TLC judges observed traces of the real code: accepted, or the first step the spec cannot explain',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(
      argv,
      { observed: { type: 'boolean', default: false }, system: { type: 'string', multiple: true }, timeout: { type: 'string' }, json: { type: 'boolean', default: false } },
      true,
    );
    const timeoutMs = intOption(values, 'timeout', { min: 1, max: 86_400, default: 600 }) * 1000;
    for (const s of values.system ?? []) if (!MODEL_NAMES.includes(s)) throw new UsageError(`--system: unknown system '${s}' (one of ${MODEL_NAMES.join(', ')})`);
    if (positionals.length === 0 && !values.observed) throw new UsageError('give TRACE files, or --observed');
    const { tracecheckStage } = await import('../../stages/tracecheck.js');
    return runAndPrint(
      'tracecheck',
      {
        json: values.json,
        human: (r) => {
          process.stdout.write(`tracecheck: ${r.status}: ${r.summary}${r.reason ? ` (${r.reason})` : ''}\n`);
          if (r.status === 'not-run' && r.summary.endsWith('not checked')) process.stderr.write(`fencecheck tracecheck: not run: ${r.reason}\n`);
        },
      },
      (io) => tracecheckStage({ files: positionals, observed: values.observed, ...(values.system ? { systems: values.system } : {}), timeoutMs }, io),
    );
  },
};
