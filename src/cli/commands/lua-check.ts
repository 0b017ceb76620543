import { statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from '../../core/command.js';
import { parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { projectRoot } from '../../core/project-root.js';
import { luaCheckReport, luaCheckSummary } from '../../stages/lua-check.js';
import { DEFAULT_INCLUDE_PATTERN, includePattern } from '../../luacheck/includes.js';
import { committedSnapshot, snapshotFromNode, snapshotJson, type KeySpecSnapshot } from '../../luacheck/keyspecs.js';
import { checkPaths } from '../../luacheck/run.js';
import { luaCheckSarif } from '../../luacheck/sarif.js';
import { LUA_SCRIPT_DIRS } from '../../registry/systems.js';
import { errorLine, luaCheckJunit, textFindings } from '../../luacheck/format.js';
import type { FailOn } from '../../luacheck/findings.js';
import { parseEndpoint } from '../../valkey/external.js';
import { closeClient, nodeClient } from '../../valkey/client.js';
import { ValkeyUnavailableError } from '../../valkey/errors.js';
import { maskSecrets } from '../../core/secrets.js';
import { MAX_SCRIPT_BYTES } from '../../luacheck/source.js';

const isDirectory = (d: string): boolean => {
  try {
    return statSync(d).isDirectory();
  } catch {
    return false;
  }
};

/** The project's own scripts, what `fencecheck lua-check` and verify's lua-check stage check by default: every system package's Lua folders (src/registry/systems.ts). */
const PROJECT_SCRIPT_DIRS: readonly string[] = LUA_SCRIPT_DIRS;

const HELP = `Usage: fencecheck lua-check [PATH...] [--fail-on error|warning] [--includes] [--include-pattern RE]
                          [--include-path DIR]... [--key-prefix-arg N]... [--node HOST:PORT [--save-snapshot FILE]]
                          [--junit FILE] [--format text|json|sarif | --json]

Checks that every key a Valkey Lua script reaches through redis.call / redis.pcall is declared in
KEYS (the locality rule: an undeclared key works on one shard and breaks when the slots split).
Key positions come from Valkey's own key specs (COMMAND INFO), from the snapshot of Valkey 8
committed in src/luacheck/, or from a live node with --node. PATH: .lua files or folders (searched
recursively); default: the project's own scripts (${PROJECT_SCRIPT_DIRS.join(', ')}).

Findings (file:line:column: severity [kind] message):
  error    a key that may live in any slot (a literal, ARGV, data read back), KEYS written to,
           a dynamic command name, loadstring, redis.call passed where it cannot be followed,
           KEYS/SCAN/RANDOMKEY/FLUSH*, commands whose keys cannot be told (SORT, MIGRATE), EVAL…
  warning  a key built from a declared key (KEYS[1] .. ':x'): same hash tag, so slot-safe when
           that key carries one, and still not declared
  info     either of the above in code the script never runs (a helper function an include
           brought in that the script does not use): shown, never failing

A script is read as its bytes (UTF-8, Latin-1, NUL or ESC in a string: Lua 5.1 is 8-bit clean);
over ${MAX_SCRIPT_BYTES / 2 ** 20} MiB, UTF-16/UTF-32 text or a UTF-8 byte-order mark is bad input. Control
characters in anything shown (keys, messages, paths) are escaped (\\x1b, \\x00, \\n).

Options:
  --fail-on error|warning  which findings fail (exit 1): 'warning' (default) fails on both,
                           'error' reports warnings and passes
  --includes               expand include directives (--- @include "file") before checking, as
                           queue libraries' loaders do: "file" relative to the including file, as
                           written or with .lua added, then in each --include-path folder; each
                           file inlined once per script (its first directive); findings name the
                           included file and its line
  --include-pattern RE     the directive as a regular expression with one capture group, the
                           path (implies --includes; default ${DEFAULT_INCLUDE_PATTERN})
  --include-path DIR       also look for includes in DIR (repeatable; implies --includes)
  --node HOST:PORT         read the key specs from this live node instead of the snapshot
  --save-snapshot FILE     with --node: also write them to FILE (the committed snapshot is
                           src/luacheck/valkey-command-keyspecs.json)
  --key-prefix-arg N       ARGV[N] is a key prefix that carries the declared keys' hash tag
                           (BullMQ's 'bull:{queue}:'): a key built from it is judged by that
                           tag (a same-tag warning), not as a key from anywhere (repeatable)
  --junit FILE             also write a JUnit XML report (one testcase per file)
  --format text|json|sarif what to print: text (default), a fencecheck.stage/1 report, or a
                           SARIF 2.1.0 log for code scanning (rule ids FCL001…)
  --json                   the same as --format json

A reviewed finding is suppressed by a comment on its line (or alone on the line before):
  -- lua-check-allow undeclared-key: the caller passes a key of the same slot
(a rule's kind or id, several with commas; the reason is required). Suppressed findings are
counted apart and never fail; SARIF lists them as suppressed, with the reason.

Exit codes: 0 clean · 1 findings · 2 --node could not be read · 3 a file or include that cannot
be read, or a Lua syntax error (the other files are still checked and reported) · 64 usage`;

export const command: Command = {
  name: 'lua-check',
  summary: 'check that Lua scripts touch only keys declared in KEYS (any script, any folder)',
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        'fail-on': { type: 'string', default: 'warning' },
        includes: { type: 'boolean', default: false },
        'include-pattern': { type: 'string' },
        'include-path': { type: 'string', multiple: true },
        node: { type: 'string' },
        'save-snapshot': { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'boolean', default: false },
        format: { type: 'string' },
        'key-prefix-arg': { type: 'string', multiple: true },
      },
      true,
    );
    const failOn = values['fail-on'];
    if (failOn !== 'error' && failOn !== 'warning') throw new UsageError(`--fail-on takes error or warning, got '${failOn}'`);
    let pattern: RegExp | undefined;
    const includePath = (values['include-path'] ?? []).map((d) => resolve(d));
    for (const [i, d] of includePath.entries()) if (!isDirectory(d)) throw new UsageError(`--include-path ${values['include-path']![i]} is not a directory`);
    if (values.includes || values['include-pattern'] !== undefined || includePath.length > 0) {
      try {
        pattern = includePattern(values['include-pattern'] ?? DEFAULT_INCLUDE_PATTERN);
      } catch (err) {
        throw new UsageError(`--include-pattern: ${(err as Error).message}`);
      }
    }
    if (values['save-snapshot'] !== undefined && values.node === undefined) throw new UsageError('--save-snapshot needs --node (the server to read the key specs from)');
    if (values.junit === '') throw new UsageError('--junit takes a file name');
    const format = values.format ?? (values.json ? 'json' : 'text');
    if (format !== 'text' && format !== 'json' && format !== 'sarif') throw new UsageError(`--format takes text, json or sarif, got '${format}'`);
    if (values.json && format !== 'json') throw new UsageError(`--json and --format ${format} ask for two outputs: give one`);
    const keyPrefixArgs = (values['key-prefix-arg'] ?? []).map((n) => {
      if (!/^[1-9][0-9]{0,5}$/.test(n)) throw new UsageError(`--key-prefix-arg takes an ARGV position (1, 2, …), got '${n}'`);
      return Number(n);
    });

    const snapshot = values.node !== undefined ? await liveSnapshot(values.node) : committedSnapshot();
    if (values['save-snapshot'] !== undefined) writeFileSync(values['save-snapshot'], snapshotJson(snapshot));

    const paths = positionals.length > 0 ? positionals : PROJECT_SCRIPT_DIRS.map((d) => resolve(projectRoot, d));
    const result = checkPaths(paths, {
      snapshot,
      failOn: failOn as FailOn,
      ...(pattern && { includePattern: pattern }),
      ...(includePath.length > 0 && { includePath }),
      ...(keyPrefixArgs.length > 0 && { keyPrefixArgs }),
    });
    const durationMs = Date.now() - startedAt.getTime();
    if (values.junit !== undefined) writeFileSync(values.junit, luaCheckJunit(result, failOn as FailOn, startedAt.toISOString(), durationMs / 1000));

    const code = result.unparseable > 0 ? ExitCode.BadInput : result.failing > 0 ? ExitCode.Failed : ExitCode.Ok;
    const summary = luaCheckSummary(result, snapshot.server, values.node !== undefined);
    if (format === 'sarif') process.stdout.write(`${JSON.stringify(luaCheckSarif(result), null, 2)}\n`);
    else if (format === 'json') {
      const report = luaCheckReport(result, { keySpecs: snapshot.server, live: values.node !== undefined, failOn: failOn as FailOn, startedAt, durationMs });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      // A finding in an include is one line, naming the scripts that include it and how.
      const { lines, total } = textFindings(result);
      for (const line of lines) process.stdout.write(`${line}\n`);
      process.stdout.write(`${summary}${lines.length < total ? ` — ${lines.length} distinct finding${lines.length === 1 ? '' : 's'} (an include's shown once)` : ''}\n`);
    }
    for (const f of result.files) if (f.status === 'unparseable') process.stderr.write(`fencecheck lua-check: ${errorLine(f)}\n`);
    return code;
  },
};

async function liveSnapshot(node: string): Promise<KeySpecSnapshot> {
  let endpoint;
  try {
    endpoint = parseEndpoint(node);
  } catch (err) {
    throw new UsageError(`--node: ${maskSecrets((err as Error).message)}`);
  }
  const client = nodeClient(endpoint);
  try {
    return await snapshotFromNode(client);
  } catch (err) {
    throw new ValkeyUnavailableError(`cannot read the key specs from ${node}: ${(err as Error).message}`);
  } finally {
    await closeClient(client);
  }
}
