import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, SEED_RANGE, UsageError } from '../../core/args.js';
import { STAGE_OPTION_FLAGS, type StageOption, type StageParams } from '../../core/stage.js';
import { shardOption } from '../../seam/tour/shard.js';
import { STAGE_NAMES, STAGES, stageObject, TOPOLOGIES, type Topology } from '../../verify/stages.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck stage NAME [--runs N] [--seed N] [--topology T] [--const NAME=VALUE]... [--shard I/N]
                        [--serve-report FILE] [--json]

Runs one of verify's stages as verify runs it: the stage object's run, with the options it takes,
in this process (verify starts one such process per stage, in its own process group). A stage is
refused an option it does not take (exit 64). Its report is a StageReport (fencecheck.stage/1).

Stages (and the options each takes):
${STAGES.map((s) => `  ${s.name.padEnd(16)} ${[...s.takes.map((k) => STAGE_OPTION_FLAGS[k]), ...(s.shardable ? ['--shard'] : []), ...(s.serves !== undefined ? ['--serve-report'] : [])].join(' ') || '(none)'}`).join('\n')}

Options:
  --runs N, --seed N, --topology T, --const N=V   verify's options, for a stage that takes them
  --shard I/N          part I of N of a shardable stage's work
  --serve-report FILE  where a stage that serves another (the impl layer serves conform) writes its report
  --json               print the StageReport

Exit codes: 0 passed · 1 failed · 2 not run · 3 bad input · 64 usage (an unknown stage, an option it does not take)`;

/** The verify options given, each refused unless the stage takes it. */
function given(values: Record<string, unknown>, name: string, takes: readonly StageOption[]): StageParams {
  const out: { -readonly [K in StageOption]?: unknown } = {};
  const refuse = (k: StageOption) => {
    throw new UsageError(`stage ${name} does not take ${STAGE_OPTION_FLAGS[k]} (it takes ${takes.map((t) => STAGE_OPTION_FLAGS[t]).join(', ') || "none of verify's options"})`);
  };
  if (values.runs !== undefined) out.runs = takes.includes('runs') ? intOption(values, 'runs', { min: 1, max: 1_000_000 }) : refuse('runs');
  if (values.seed !== undefined) out.seed = takes.includes('seed') ? intOption(values, 'seed', SEED_RANGE) : refuse('seed');
  if (values.topology !== undefined) {
    if (!takes.includes('topology')) refuse('topology');
    if (!(TOPOLOGIES as readonly string[]).includes(values.topology as string)) throw new UsageError(`--topology is ${TOPOLOGIES.join(', ')}, got '${values.topology}'`);
    out.topology = values.topology as Topology;
  }
  if (values.const !== undefined) out.constants = takes.includes('constants') ? values.const : refuse('constants');
  return out as StageParams;
}

export const command: Command = {
  name: 'stage',
  summary: "run one of verify's stages as verify runs it (the stage object, its typed options)",
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        runs: { type: 'string' },
        seed: { type: 'string' },
        topology: { type: 'string' },
        const: { type: 'string', multiple: true },
        shard: { type: 'string' },
        'serve-report': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError(`give one stage (${STAGE_NAMES.join(', ')})`);
    const name = positionals[0]!;
    const stage = stageObject(name);
    if (!stage) throw new UsageError(`unknown stage '${name}' (stages: ${STAGE_NAMES.join(', ')})`);
    const params = given(values, name, stage.takes);
    if (values.shard !== undefined && !stage.shardable) throw new UsageError(`stage ${name} is not shardable`);
    if (values['serve-report'] !== undefined && stage.serves === undefined) throw new UsageError(`stage ${name} serves no other stage`);
    const shard = shardOption(values.shard);
    return runAndPrint('stage', { json: values.json, human: (r) => process.stdout.write(`${name}: ${r.status}: ${r.summary}${r.reason && r.status !== 'passed' ? ` (${r.reason})` : ''}\n`) }, (io) =>
      stage.run({ ...params, ...(shard.count > 1 ? { shard } : {}), ...(values['serve-report'] !== undefined ? { serveReport: values['serve-report'] } : {}) }, io),
    );
  },
};
