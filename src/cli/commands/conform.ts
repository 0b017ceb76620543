import type { Command } from '../../core/command.js';
import { constantsOption, intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { isProviderChoice } from '../../valkey/start.js';
import { shardOption } from '../../seam/tour/shard.js';
import { TOUR_NAMES } from '../../registry/systems.js';
import { runAndPrint } from '../stage-print.js';

const HELP = `Usage: fencecheck conform [--system NAME]... [--const NAME=VALUE]... [--gate] [--mutant ID | --patch FILE [--safety-only]] [--invariant NAME]
                         [--shard I/N] [--concurrency N] [--provider P] [--json]

The exhaustive conformance tour of each system's real code (${TOUR_NAMES.join(', ')}). From the
model's initial states, in every state reached and for every attempt in it — every transition the
model enables and every attempt it refuses — a fresh instance of the real code is put into exactly
that state, the attempt runs, and the real state read back is the successor. Checked on the real
system: the model's prediction of every step (decision and successor), every invariant, and the
system's own checks (for fencing: the TTL rules, T3 on the wire, the read side of every version).
No randomness: the same code gives the same verdict on every run.

Options:
  --system NAME     a system with a tour (repeatable, or all; default all)
  --const N=V       a TLA+ constant, as TLC reads it (e.g. --const Pods=4 --const MaxGen=6 for fencing;
                    default: the spec's base config); without --system, the systems whose spec has it
  --gate            verify's bound: a system whose whole graph takes minutes tours the constants its
                    tour names for the gate, the others their base config. Without --gate and --const
                    a system tours its base config, or its tour's default bound where the tour does
                    not map the base config (the first line prints the bounds toured)
  --mutant ID       run against the impl patch of a mutant (mutants/manifest.json; its system is the
                    tour's); checks its expected invariant alone, following the real graph wherever it leads
  --patch FILE      run your own implementation patch (a module default-exporting the system's patch
                    type, e.g. fencing's ImplPatch; the system is the one whose patch it is, or --system):
                    the unpatched tour first, then the patched code's whole tour (conformance, every
                    invariant, the system's checks); verdict killed (exit 1: the check, the finding,
                    its replay), equivalent (everything observed is the unpatched code's) or survived
                    (every check held, something observed differs) (exit 0) — docs/conform.md
  --safety-only     with --patch, for a change the model does not have yet: a departure from the
                    model is reported ("departs from the model at …; every invariant held", exit 4)
                    when the patched code's real graph keeps every invariant, killed when it does not
  --invariant NAME  check this invariant alone (with the type invariant) instead of full conformance
  --shard I/N       run a deterministic 1/N of one system's full conformance tour: every attempt of the
                    model states whose key hashes to shard I (1 ≤ I ≤ N ≤ 64); the N shards' --json
                    reports merge into the unsharded one (counts, rows and digest add up)
  --concurrency N   attempts in flight at once (default: the system's)
  --provider P      auto, native, testcontainers or external (default FENCECHECK_VALKEY_PROVIDER or auto)
  --json            print a StageReport (fencecheck.stage/1)

Exit codes: 0 the real graph is the model's (or, with an invariant alone, it holds) · 1 a check
failed (path from Init printed, trace saved; 'fencecheck trace replay FILE' runs it), or --patch killed ·
2 not run (the real system could not be started) · 3 unknown mutant, or a mutant's or --patch file
that cannot be loaded or is no patch of the system · 4 --patch --safety-only departs from the model,
every invariant holding · 64 usage`;

export const command: Command = {
  name: 'conform',
  summary: 'exhaustive conformance tour: every model transition and refused attempt on the real code',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, {
      system: { type: 'string', multiple: true },
      const: { type: 'string', multiple: true },
      gate: { type: 'boolean', default: false },
      mutant: { type: 'string' },
      patch: { type: 'string' },
      'safety-only': { type: 'boolean', default: false },
      invariant: { type: 'string' },
      concurrency: { type: 'string' },
      shard: { type: 'string' },
      provider: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const concurrency = intOption(values, 'concurrency', { min: 1, max: 4096 });
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`--provider: unknown provider '${values.provider}'`);
    const constants = constantsOption(values.const);

    if (values['safety-only'] && values.patch === undefined) throw new UsageError("--safety-only applies to --patch FILE (the model and the code it checks are the project's own)");
    if (values.patch !== undefined) {
      if (values['safety-only'] && values.invariant !== undefined)
        throw new UsageError('give --safety-only (every invariant, a departure reported) or --invariant NAME (one invariant alone), not both');
      if (values.mutant !== undefined) throw new UsageError('give --mutant ID or --patch FILE, not both');
      if (values.shard !== undefined) throw new UsageError('--shard applies to the full conformance tour, not to --patch (a patch is followed through its real graph, which only the whole run knows)');
      const { conformPatch } = await import('./conform-patch.js');
      return conformPatch({
        file: values.patch,
        ...(values.system ? { systems: values.system } : {}),
        ...(values.invariant !== undefined ? { invariant: values.invariant } : {}),
        ...(values['safety-only'] ? { safetyOnly: true } : {}),
        constants,
        gate: values.gate,
        ...(concurrency ? { concurrency } : {}),
        ...(values.provider !== undefined ? { provider: values.provider } : {}),
        json: values.json,
      });
    }

    const shard = shardOption(values.shard);
    const { conformStage } = await import('../../stages/conform.js');
    return runAndPrint('conform', { json: values.json }, (io) =>
      conformStage(
        {
          ...(values.system ? { systems: values.system } : {}),
          constants,
          gate: values.gate,
          ...(values.mutant !== undefined ? { mutant: values.mutant } : {}),
          ...(values.invariant !== undefined ? { invariant: values.invariant } : {}),
          ...(shard.count > 1 ? { shard } : {}),
          ...(concurrency ? { concurrency } : {}),
          ...(values.provider !== undefined ? { provider: values.provider } : {}),
        },
        io,
      ),
    );
  },
};
