import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { benchSections, NAMED_ONLY } from '../../../bench/index.js';

const HELP = `Usage: fencecheck bench [SECTION...] [--runs N]   (npm run bench [-- SECTION... --runs N])

Runs the benchmarks and prints figures: topology start times, script-call rates beside
valkey-benchmark, exploration time beside TLC's, model-based commands per second, limiter decisions
per second, the whole conformance tour beside the raw script-call ceiling, verify's wall time per
stage; under two CPU burners, the pass rate of every real-time row, drill and interruption with the
stop times (stability), the signal census of every long command (signals: exits, stop times, what
is left after SIGINT, SIGTERM, SIGKILL-then-reap) and the tests' timed values beside their bounds (timing). Speed is
measured here, never asserted in tests.

Options:
  --runs N   how many times the stability, signals and timing sections run each item (default 10, 6 and 5)

Sections: ${Object.keys(benchSections).join(', ')} (default: all but ${NAMED_ONLY.join(', ')}, which run when named)

Exit codes: 0 printed · 2 a section could not run (reason printed) · 64 usage`;

export const command: Command = {
  name: 'bench',
  summary: 'run the benchmarks and print figures',
  help: HELP,
  async run(argv) {
    const { positionals, values } = parseCommandArgs(argv, { runs: { type: 'string' } }, true);
    const runs = intOption(values, 'runs', { min: 1, max: 1000 });
    const names = positionals.length > 0 ? positionals : Object.keys(benchSections).filter((n) => !NAMED_ONLY.includes(n));
    for (const n of names) if (!benchSections[n]) throw new UsageError(`unknown section '${n}'`);
    let code: ExitCode = ExitCode.Ok;
    for (const n of names) {
      let section;
      try {
        section = (await benchSections[n]!()).section;
      } catch (err) {
        if (err instanceof Error && /Cannot find module|ERR_MODULE_NOT_FOUND/.test(err.message)) {
          process.stdout.write(`\n== ${n}: not run (section not built yet)\n`);
          continue;
        }
        throw err;
      }
      process.stdout.write(`\n== ${section.title}\n`);
      try {
        await section.run((line) => process.stdout.write(`${line}\n`), runs !== undefined ? { runs } : {});
      } catch (err) {
        process.stdout.write(`not run: ${(err as Error).message}\n`);
        code = ExitCode.NotRun;
      }
    }
    return code;
  },
};
