/**
 * The drive's command line: the server's properties checked over HTTP.
 *
 *   npx tsx src/systems/init-limiter/drive/main.ts --url http://127.0.0.1:8030   a server of yours (same endpoints, same /metrics)
 *   npx tsx src/systems/init-limiter/drive/main.ts [--patch FILE]                the reference server, started per check
 *   … [--check ID]... [--json] [--list]
 *
 * Against --url the checks that need the control endpoint run only if the server has one; those
 * whose assumed configuration /metrics contradicts are "not run" (never passed). Exit codes: 0 every
 * check that ran held, 1 one broke, 2 the server could not be reached, 3 bad input (URL, patch),
 * 64 usage.
 */
import { pathToFileURL } from 'node:url';
import { parseCommandArgs, type UsageError } from '../../../core/args.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { projectRoot } from '../../../core/project-root.js';
import { loadInitLimiterPatch, PatchError, type InitLimiterPatch } from '../server/index.js';
import { CHECKS, runCheck, type CheckOutcome } from './checks.js';
import { checkOnReferenceServer } from './reference.js';
import { ControlClient } from './control-client.js';
import { DriveInputError, endpointOf } from './http-wire.js';
import { readMetrics } from './metrics-reader.js';

const USAGE = 'usage: main.ts [--url URL | --patch FILE] [--check ID]... [--json] [--list]';

export async function driveMain(argv: readonly string[], out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<number> {
  let args;
  try {
    args = parseCommandArgs(argv, {
      url: { type: 'string' },
      patch: { type: 'string' },
      check: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      list: { type: 'boolean' },
      help: { type: 'boolean' },
    }).values;
  } catch (err) {
    out(`${(err as UsageError).message}\n${USAGE}`);
    return ExitCode.Usage;
  }
  if (args.help) return (out(USAGE), ExitCode.Ok);
  if (args.list) {
    for (const c of CHECKS) out(`${c.id.padEnd(40)} ${c.control === 'required' ? 'control' : 'any    '} ${c.invariants.join(', ') || '-'} (catches ${c.catches.join(', ') || '-'})\n  ${c.property}`);
    return ExitCode.Ok;
  }
  if (args.url && args.patch) return (out(`--patch applies to the reference server, not to --url\n${USAGE}`), ExitCode.Usage);
  const unknown = (args.check ?? []).filter((id) => !CHECKS.some((c) => c.id === id));
  if (unknown.length) return (out(`unknown check ${unknown.join(', ')} (--list names them)`), ExitCode.BadInput);
  const selected = args.check?.length ? CHECKS.filter((c) => args.check!.includes(c.id)) : CHECKS;

  let patch: InitLimiterPatch | undefined;
  let control: ControlClient | null = null;
  try {
    if (args.patch) {
      const file = args.patch;
      patch = await loadInitLimiterPatch(file, process.cwd() || projectRoot).catch((err: unknown) => {
        throw err instanceof PatchError ? err : new PatchError(`${file}: cannot load it (${(err as Error).message.split('\n')[0]})`);
      });
    }
    if (args.url) {
      endpointOf(args.url);
      await readMetrics(args.url.replace(/\/$/, ''));
      const c = new ControlClient(args.url.replace(/\/$/, ''));
      control = (await c.available()) ? c : null;
    }
  } catch (err) {
    if (err instanceof PatchError || err instanceof DriveInputError) return (out(err.message), ExitCode.BadInput);
    return (out(`could not run: ${args.url ?? args.patch} — ${(err as Error).message}`), ExitCode.NotRun);
  }

  const url = args.url?.replace(/\/$/, '');
  const results: Array<{ id: string; invariants: readonly string[] } & CheckOutcome> = [];
  for (const check of selected) {
    let r: CheckOutcome;
    try {
      r = url ? await runCheck(check, url, control) : await checkOnReferenceServer(check, patch);
    } catch (err) {
      r = { status: 'broken', observed: `the check could not complete: ${(err as Error).message}` };
    }
    results.push({ id: check.id, invariants: check.invariants, ...r });
    if (!args.json) out(`${r.status.padEnd(7)} ${check.id.padEnd(40)} ${r.observed}`);
  }
  const broken = results.filter((r) => r.status === 'broken').length;
  const notRun = results.filter((r) => r.status === 'not-run').length;
  if (args.json) out(JSON.stringify({ target: url ?? 'reference server', control: url ? control !== null : true, results }, null, 2));
  else out(`${results.length - broken - notRun} held, ${broken} broken, ${notRun} not run${url && !control ? ' (no control endpoint: only the real-time checks ran)' : ''}`);
  return broken > 0 ? ExitCode.Failed : ExitCode.Ok;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  driveMain(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(ExitCode.NotRun);
    },
  );
}
