import type { Command } from '../../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../../core/args.js';
import { statusExitCode } from '../../../core/exit-codes.js';
import { isProviderChoice, type ProviderChoice } from '../../../valkey/start.js';
import { MATRIX_ROWS, matrixRow } from '../cluster-matrix/rows/index.js';
import { matrixTable } from '../cluster-matrix/report.js';
import { DEFAULT_DRILL_REPEAT, runClusterMatrix } from '../cluster-matrix/stage.js';

const HELP = `Usage: fencecheck cluster-matrix [--row NAME]... [--variant ROW=V]... [--repeat N] [--provider P] [--json]

The cluster client matrix on real multi-shard Valkey 8 topologies the harness starts (3 shards;
3 primaries × 1 replica for the drills). Each row has two verdicts — errors, and silently wrong
(judged against a known population, message ledger or keyspace, never by the absence of errors) —
and the figures it measured:
${MATRIX_ROWS.map((r) => `  ${r.name.padEnd(11)} ${r.surface}; variants ${r.variants.join(', ')}`).join('\n')}

Options:
  --row NAME      run only this row (repeatable; default every row, in the order above)
  --variant R=V   run row R with implementation variant V (the first is the design that must pass;
                  the others are the deliberately broken ones, which must turn the row red)
  --repeat N      failure drills to run (halt-window percentiles; default ${DEFAULT_DRILL_REPEAT}, 1..30)
  --provider P    auto|native|testcontainers|external (default: FENCECHECK_VALKEY_PROVIDER or auto);
                  the matrix needs nodes the harness started: an external endpoint is not run
  --json          print a fencecheck.stage/1 report (details: fencecheck.cluster-matrix/1, the rows)


Exit codes: 0 every row passed both columns · 1 a row failed · 2 a row could not run (Valkey
missing, not owned, an infrastructure fault; never counted as passed) · 64 usage`;

export const command: Command = {
  name: 'cluster-matrix',
  summary: 'the cluster client matrix on real multi-shard Valkey: registry, sharded pub/sub, presence, routing, failure drills',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      row: { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
      repeat: { type: 'string' },
      provider: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const names = values.row ?? MATRIX_ROWS.map((r) => r.name);
    const rows = names.map(
      (n) =>
        matrixRow(n) ??
        (() => {
          throw new UsageError(`unknown row '${n}' (rows: ${MATRIX_ROWS.map((r) => r.name).join(', ')})`);
        })(),
    );
    const variants: Record<string, string> = {};
    for (const v of values.variant ?? []) {
      const [row, variant] = v.split('=', 2);
      const r = row !== undefined ? matrixRow(row) : undefined;
      if (!r || variant === undefined || !r.variants.includes(variant))
        throw new UsageError(`--variant takes ROW=VARIANT (${MATRIX_ROWS.map((x) => `${x.name}=${x.variants.join('|')}`).join('; ')}), got '${v}'`);
      variants[row!] = variant;
    }
    const repeat = intOption(values, 'repeat', { min: 1, max: 30, default: DEFAULT_DRILL_REPEAT });
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`unknown provider '${values.provider}'`);
    const provider = values.provider as ProviderChoice | undefined;

    const { report, results } = await runClusterMatrix({ rows, variants, repeat, ...(provider ? { provider } : {}) });
    if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(`${matrixTable(results)}\n${report.summary}\n`);
    return statusExitCode(report.status);
  },
};
