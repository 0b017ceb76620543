import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { stageReport } from '../../core/stage-report.js';
import { benchSections, NAMED_ONLY } from '../../../bench/index.js';

const HELP = `Usage: fencecheck bench [SECTION...] [--runs N] [--json]   (npm run bench [-- SECTION... --runs N])

Runs the benchmarks and prints figures: topology start times, script-call rates beside
valkey-benchmark, exploration time beside TLC's, model-based commands per second, limiter decisions
per second, the whole conformance tour beside the raw script-call ceiling, verify's wall time per
stage; under two CPU burners, the pass rate of every real-time row, drill and interruption with the
stop times (stability), the signal census of every long command (signals: exits, stop times, what
is left after SIGINT, SIGTERM, SIGKILL-then-reap) and the tests' timed values beside their bounds (timing). Speed is
measured here, never asserted in tests.

Options:
  --runs N   how many times the stability, signals and timing sections run each item (default 10, 6 and 5)
  --json     print a fencecheck.stage/1 report instead: each section's title, status and lines

Sections: ${Object.keys(benchSections).join(', ')} (default: all but ${NAMED_ONLY.join(', ')}, which run when named)

Exit codes: 0 printed · 2 a section could not run (reason printed) · 64 usage`;

/** One section in `bench --json`: its figures as the lines it printed. */
interface BenchSectionResult {
  readonly name: string;
  readonly title: string;
  readonly status: 'printed' | 'not-run';
  readonly reason?: string;
  readonly lines: readonly string[];
}

export const command: Command = {
  name: 'bench',
  summary: 'run the benchmarks and print figures',
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { positionals, values } = parseCommandArgs(argv, { runs: { type: 'string' }, json: { type: 'boolean', default: false } }, true);
    const runs = intOption(values, 'runs', { min: 1, max: 1000 });
    const names = positionals.length > 0 ? positionals : Object.keys(benchSections).filter((n) => !NAMED_ONLY.includes(n));
    for (const n of names) if (!benchSections[n]) throw new UsageError(`unknown section '${n}'`);
    // Text goes out as it comes; with --json each section's lines are collected for the report.
    const say = (line: string) => {
      if (!values.json) process.stdout.write(`${line}\n`);
    };
    const sections: BenchSectionResult[] = [];
    let code: ExitCode = ExitCode.Ok;
    for (const n of names) {
      let section;
      try {
        section = (await benchSections[n]!()).section;
      } catch (err) {
        if (err instanceof Error && /Cannot find module|ERR_MODULE_NOT_FOUND/.test(err.message)) {
          say(`\n== ${n}: not run (section not built yet)`);
          sections.push({ name: n, title: n, status: 'not-run', reason: 'section not built yet', lines: [] });
          continue;
        }
        throw err;
      }
      say(`\n== ${section.title}`);
      const lines: string[] = [];
      try {
        await section.run(
          (line) => {
            lines.push(line);
            say(line);
          },
          runs !== undefined ? { runs } : {},
        );
        sections.push({ name: n, title: section.title, status: 'printed', lines });
      } catch (err) {
        say(`not run: ${(err as Error).message}`);
        sections.push({ name: n, title: section.title, status: 'not-run', reason: (err as Error).message, lines });
        code = ExitCode.NotRun;
      }
    }
    if (values.json) {
      const notRun = sections.filter((x) => x.status === 'not-run');
      const report = stageReport({
        stage: 'bench',
        status: notRun.length > 0 ? 'not-run' : 'passed',
        ...(notRun.length > 0 && { reason: notRun.map((x) => `${x.name}: ${x.reason}`).join('; ') }),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary: `bench: ${sections.length - notRun.length} of ${sections.length} section${sections.length === 1 ? '' : 's'} printed`,
        counts: { sections: sections.length, notRun: notRun.length },
        details: { sections },
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    }
    return code;
  },
};
