/**
 * A system's stage whose judging still lives in its command module (its parse, its run and its
 * report in one function): the stage's typed options become that command's arguments, and the
 * command runs in this process with `--json`; its report is the stage's. The stages built this way
 * are listed in test/architecture/stages.test.ts, which fails on a new one: a new stage declares
 * its run as a function over its typed options (docs/decisions.md, "A stage is an object").
 */
import type { Command } from '../core/command.js';
import { ExitCode } from '../core/exit-codes.js';
import { defineStage, StageInputError, type Stage, type StageOption, type StageParams, type StageTraits } from '../core/stage.js';
import { stageReport, type StageReport } from '../core/stage-report.js';

export interface CommandStage<K extends StageOption> extends StageTraits {
  readonly takes: readonly K[];
  /** The command module. */
  readonly command: () => Promise<{ command: Command }>;
  /** Its arguments for these options (without `--json`). */
  readonly argv: (params: StageParams<K>) => readonly string[];
}

/** The stages declared through `commandStage`, by name: what is left to move to a run of their own. */
export const COMMAND_STAGES = new Set<string>();

export function commandStage<K extends StageOption = never>(s: CommandStage<K>): Stage {
  COMMAND_STAGES.add(s.name);
  const { command, argv, ...traits } = s;
  return defineStage<K>({
    ...traits,
    run: async (params) => {
      const cmd = (await command()).command;
      const startedAt = new Date();
      const printed: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      // The command prints its report; it is this stage's return value instead.
      process.stdout.write = ((chunk: unknown) => {
        printed.push(String(chunk));
        return true;
      }) as typeof process.stdout.write;
      let code: number;
      try {
        code = await cmd.run([...argv(params), '--json']);
      } finally {
        process.stdout.write = write;
      }
      const text = printed.join('').trim();
      if (text !== '') return JSON.parse(text) as StageReport;
      if (code === ExitCode.BadInput) throw new StageInputError(`${s.name} printed no report (exit ${code})`);
      return stageReport({
        stage: s.name,
        status: code === ExitCode.NotRun ? 'not-run' : 'failed',
        reason: `printed no report (exit ${code})`,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary: `${s.name}: exit ${code}`,
      });
    },
  });
}
