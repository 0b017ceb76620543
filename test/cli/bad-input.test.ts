/**
 * The bad-input catalogue: one row per way to hand a command something wrong. Every row
 * runs the real CLI (`node bin/fencecheck.mjs …`) with a timeout and asserts the exit code (3 bad
 * input, 64 usage), one clear stderr line matching the row's pattern, and never a stack trace. No
 * row needs Valkey or Java: each is refused before anything starts.
 *
 * FENCECHECK_BAD_INPUT_ROOT=/path/to/another/checkout runs the same table against that checkout's
 * CLI (how each row was shown to fail before the fix).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { m1Trace } from '../trace/fixtures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { createHash } from 'node:crypto';

/** The SHA-256 of a repository file, as a trace's patch record holds it. */
const sha256Of = (path: string): string =>
  createHash('sha256')
    .update(readFileSync(join(projectRoot, path)))
    .digest('hex');

const ROOT = process.env.FENCECHECK_BAD_INPUT_ROOT ?? projectRoot;
const TIMEOUT_MS = 15_000;

type Json = Record<string, unknown>;
type Trace = { schema: string; bounds: { pods: string[]; maxGen: number }; steps: { action: string; params: Record<string, unknown>; state: Json }[] } & Json;
type Manifest = { schema: string; mutants: ({ id: string; expectedInvariant: string; layers: Record<string, { patch?: string; config?: string }> } & Json)[] };

interface Row {
  /** What the row shows, and the defect it shows fixed (if it was one). */
  readonly name: string;
  /** `{file}` is replaced by the row's temp file. */
  readonly argv: readonly string[];
  /** The temp file's content: a string, a change to a valid trace (test/trace/fixtures.ts m1Trace), or a FIFO / a directory. */
  readonly file?: string | Buffer | ((t: Trace) => unknown) | 'fifo' | 'dir';
  /** Run a temp copy of the project whose mutants/manifest.json is this (a string, or a change to the real one). */
  readonly manifest?: string | ((m: Manifest) => unknown);
  readonly env?: Readonly<Record<string, string>>;
  readonly code: number;
  /** The single stderr line must match (exit 0 rows: stdout's first line). */
  readonly line: RegExp;
}

const usage = (cmd: string, what: RegExp | string) => new RegExp(`^fencecheck ${cmd}: .*${typeof what === 'string' ? what : what.source}.*\\(see 'fencecheck ${cmd.split(' ')[0]} --help'\\)$`);
const int = (flag: string) => `${flag} takes an integer`;
const withStep = (t: Trace, i: number, change: (s: Trace['steps'][number]) => void): Trace => {
  const c = structuredClone(t);
  change(c.steps[i]!);
  return c;
};

const UNKNOWN_FLAG: readonly (readonly string[])[] = [
  ['topology', 'start'],
  ['slot'],
  ['tlc'],
  ['evidence'],
  ['explore'],
  ['parity'],
  ['diagram'],
  ['mutants'],
  ['props'],
  ['conform'],
  ['gate'],
  ['rollout'],
  ['limiter'],
  ['trace', 'show', 'x.json'],
  ['trace', 'replay', 'x.json'],
  ['lua-check'],
  ['diff', 'a.json', 'b.json'],
  ['merge', 'a.json'],
  ['trace', 'import', 'x.json'],
  ['cluster-matrix'],
  ['failover'],
  ['systems'],
  ['stage', 'evidence'],
];

export const CATALOGUE: readonly Row[] = [
  // --- top level: --version and help CMD ("no --version; help explore ignores its argument")
  { name: '--version prints the version', argv: ['--version'], code: 0, line: /^fencecheck \d+\.\d+\.\d+/ },
  { name: 'help explore prints explore’s help', argv: ['help', 'explore'], code: 0, line: /^Usage: fencecheck explore / },
  { name: 'help of an unknown command is usage', argv: ['help', 'frobnicate'], code: 64, line: /^fencecheck: unknown command 'frobnicate'/ },
  { name: 'an unknown command is usage', argv: ['frobnicate'], code: 64, line: /^fencecheck: unknown command 'frobnicate'/ },

  // --- every command's unknown flag
  ...UNKNOWN_FLAG.map(
    (argv): Row => ({ name: `${argv.slice(0, 2).join(' ')}: unknown flag`, argv: [...argv, '--bogus'], code: 64, line: usage(argv[0] === 'trace' ? 'trace' : argv[0]!, /Unknown option '--bogus'/) }),
  ),

  // --- numbers: decimal integers only, in range; negative ones where allowed
  { name: '--seed 1e30 is refused', argv: ['props', '--seed', '1e30'], code: 64, line: usage('props', int('--seed')) },
  { name: "--seed '' is refused", argv: ['props', '--seed', ''], code: 64, line: usage('props', int('--seed')) },
  { name: '--runs 1e9 is refused', argv: ['mutants', '--runs', '1e9'], code: 64, line: usage('mutants', int('--runs')) },
  { name: '--runs 0x10 is refused', argv: ['limiter', '--runs', '0x10'], code: 64, line: usage('limiter', int('--runs')) },
  { name: 'verify --seed 1e30 is refused', argv: ['verify', '--seed', '1e30'], code: 64, line: usage('verify', int('--seed')) },
  { name: 'verify --jobs 0x2 is refused', argv: ['verify', '--jobs', '0x2'], code: 64, line: usage('verify', int('--jobs')) },
  { name: 'conform --concurrency 1e3 is refused', argv: ['conform', '--concurrency', '1e3'], code: 64, line: usage('conform', int('--concurrency')) },
  { name: 'props --provider bogus is refused', argv: ['props', '--provider', 'bogus'], code: 64, line: usage('props', /--provider is auto, native, testcontainers or external, got 'bogus'/) },
  { name: '--runs 1000000000 is out of range', argv: ['props', '--runs', '1000000000'], code: 64, line: usage('props', /--runs takes an integer from 1 to \d+, got "1000000000"/) },
  { name: '--runs 0 is out of range', argv: ['limiter', '--runs', '0'], code: 64, line: usage('limiter', /--runs takes an integer from 1 to/) },
  { name: '--seed out of the 32-bit range', argv: ['limiter', '--seed', '99999999999'], code: 64, line: usage('limiter', int('--seed')) },
  { name: 'a negative --seed is a seed, not "ambiguous" (the next bad flag is reported)', argv: ['props', '--seed', '-5', '--runs', 'x'], code: 64, line: usage('props', /--runs takes an integer/) },
  { name: 'a negative --seed=-5 for mutants', argv: ['mutants', '--seed=-5', '--runs', '1.5'], code: 64, line: usage('mutants', /--runs takes an integer/) },
  {
    name: 'a negative MaxGen is out of range, not "ambiguous"',
    argv: ['explore', '--system', 'fencing', '--const', 'MaxGen=-1'],
    code: 64,
    line: usage('explore', /--const: MaxGen takes an integer from 0 to 12, got "-1"/),
  },
  { name: 'Pods=0 is out of range', argv: ['explore', '--system', 'fencing', '--const', 'Pods=0'], code: 64, line: usage('explore', /--const: Pods takes a count from 1 to 9/) },
  { name: '--const without one --system', argv: ['explore', '--const', 'Pods=2'], code: 64, line: usage('explore', /--const needs exactly one --system/) },
  { name: 'Pods=1e1 is refused', argv: ['conform', '--const', 'Pods=1e1'], code: 64, line: usage('conform', /--const: Pods takes a count from 1 to 9 or a set \{p1, p2, \.\.\.\}, got "1e1"/) },
  {
    name: 'conform: an init-limiter constant out of range',
    argv: ['conform', '--system', 'init-limiter', '--const', 'Streams=9'],
    code: 64,
    line: usage('conform', /--const: Streams takes a count from 1 to 3 or a set \{s1, s2, \.\.\.\}, got "9"/),
  },
  {
    name: 'conform: LimiterOn takes TRUE or FALSE',
    argv: ['conform', '--system', 'init-limiter', '--const', 'LimiterOn=off'],
    code: 64,
    line: usage('conform', /--const: LimiterOn takes TRUE or FALSE, got "off"/),
  },
  {
    name: 'conform: FDv1 names streams among Streams',
    argv: ['conform', '--system', 'init-limiter', '--const', 'Streams=1', '--const', 'FDv1={s2}'],
    code: 64,
    line: usage('conform', /--const: FDv1 names streams that are not among Streams \(s1\): s2/),
  },
  {
    name: 'conform: the init-limiter tour with the limiter off and a poll is not run (exit 2), saying why',
    argv: ['conform', '--system', 'init-limiter', '--const', 'Chunks=1', '--const', 'MaxQueued=0', '--const', 'LimiterOn=FALSE'],
    code: 2,
    line: /^fencecheck conform: init-limiter: not run: the init-limiter tour maps no polls with the limiter disabled \(LimiterOn = FALSE\), got Polls = 2 — run conform/,
  },
  {
    name: 'conform: the init-limiter tour at a bound it does not map is not run (exit 2), naming the bound it maps',
    argv: ['conform', '--system', 'init-limiter', '--const', 'Chunks=2'],
    code: 2,
    line: /^fencecheck conform: init-limiter: not run: the init-limiter tour maps Chunks = PollChunks = 1 .*— run conform with no --const \(its default bound\), --gate/,
  },
  { name: 'conform: a system without a tour', argv: ['conform', '--system', 'limiter'], code: 64, line: usage('conform', /--system: unknown system 'limiter'|--system: limiter has no tour/) },
  { name: 'conform: a mutant of another system than --system', argv: ['conform', '--mutant', 'M1', '--system', 'failover'], code: 64, line: usage('conform', /--mutant M1 is a fencing mutant/) },
  { name: '--limit 1.5 is refused', argv: ['explore', '--limit', '1.5'], code: 64, line: usage('explore', int('--limit')) },
  { name: '--concurrency 5000 is out of range', argv: ['conform', '--concurrency', '5000'], code: 64, line: usage('conform', /--concurrency takes an integer from 1 to 4096/) },
  { name: 'conform --shard 0/4 is out of range', argv: ['conform', '--shard', '0/4'], code: 64, line: usage('conform', /--shard: a shard is i\/n with 1 ≤ i ≤ n ≤ 64, got '0\/4'/) },
  { name: 'conform --shard 5/4 is out of range', argv: ['conform', '--shard', '5/4'], code: 64, line: usage('conform', /--shard: a shard is i\/n .*got '5\/4'/) },
  { name: 'conform --shard 1/65: at most 64 shards', argv: ['conform', '--shard', '1/65'], code: 64, line: usage('conform', /--shard: a shard is i\/n .*got '1\/65'/) },
  { name: 'conform --shard 2 is no shard', argv: ['conform', '--shard', '2'], code: 64, line: usage('conform', /--shard: a shard is i\/n .*got '2'/) },
  {
    name: 'conform --shard with --mutant: only the full tour is sharded',
    argv: ['conform', '--shard', '1/2', '--mutant', 'M1'],
    code: 64,
    line: usage('conform', /--shard applies to the full conformance tour/),
  },
  // --- shards and merge: refused before anything starts
  { name: 'mutants --shard on a layer other than impl', argv: ['mutants', '--layer', 'model', '--shard', '1/2'], code: 64, line: usage('mutants', /--shard applies to --layer impl alone/) },
  { name: 'mutants --workers without a layer', argv: ['mutants', '--workers', '2'], code: 64, line: usage('mutants', /--workers applies to --layer impl alone/) },
  { name: 'mutants --layer impl --shard 3/2 is out of range', argv: ['mutants', '--layer', 'impl', '--shard', '3/2'], code: 64, line: usage('mutants', /--shard: a shard is i\/n .*got '3\/2'/) },
  { name: 'mutants --layer impl --workers 0 is out of range', argv: ['mutants', '--layer', 'impl', '--workers', '0'], code: 64, line: usage('mutants', /--workers takes an integer from 1 to 64/) },
  { name: 'props --shard 0/2 is out of range', argv: ['props', '--shard', '0/2'], code: 64, line: usage('props', /--shard: a shard is i\/n .*got '0\/2'/) },
  {
    name: 'props --shard with a --path replay',
    argv: ['props', '--shard', '1/2', '--topology', 'standalone', '--seed', '1', '--path', '0:1'],
    code: 64,
    line: usage('props', /--shard splits the runs: a --path replay is one run/),
  },
  { name: 'verify --shard 1/0 is no shard', argv: ['verify', '--shard', '1/0'], code: 64, line: usage('verify', /--shard: a shard is i\/n .*got '1\/0'/) },
  { name: 'stage without a stage', argv: ['stage'], code: 64, line: usage('stage', /give one stage \(tlc, /) },
  { name: 'stage of an unknown stage', argv: ['stage', 'nope'], code: 64, line: usage('stage', /unknown stage 'nope' \(stages: tlc, /) },
  {
    name: 'stage with an option the stage does not take',
    argv: ['stage', 'parity', '--runs', '3'],
    code: 64,
    line: usage('stage', /stage parity does not take --runs \(it takes none of verify's options\)/),
  },
  {
    name: 'stage with a topology the stage does not take',
    argv: ['stage', 'explore', '--topology', 'cluster'],
    code: 64,
    line: usage('stage', /stage explore does not take --topology \(it takes --const\)/),
  },
  { name: 'stage with a bad --runs', argv: ['stage', 'props', '--runs', '0'], code: 64, line: usage('stage', /--runs/) },
  { name: 'stage with a bad --topology', argv: ['stage', 'props', '--topology', 'moon'], code: 64, line: usage('stage', /--topology is standalone, cluster, both, got 'moon'/) },
  { name: 'stage --shard of a stage run whole', argv: ['stage', 'evidence', '--shard', '1/2'], code: 64, line: usage('stage', /stage evidence is not shardable/) },
  { name: 'stage --serve-report of a stage that serves none', argv: ['stage', 'explore', '--serve-report', 'x.json'], code: 64, line: usage('stage', /stage explore serves no other stage/) },
  {
    name: "verify --shard of the tour stage alone, which splits one system's tour",
    argv: ['verify', '--stages', 'conform', '--shard', '1/2'],
    code: 64,
    line: usage('verify', /--shard: the conform stage splits one system's work and \d+ systems have it .*run it with mutants:impl/),
  },
  { name: 'merge: no report given', argv: ['merge'], code: 64, line: usage('merge', /give the verify\.json of every shard/) },
  { name: 'bench --json: an unknown section', argv: ['bench', '--json', 'nosuch'], code: 64, line: usage('bench', /unknown section 'nosuch'/) },
  { name: 'merge: a report that is not there', argv: ['merge', '/nonexistent/verify.json'], code: 3, line: /^fencecheck merge: \/nonexistent\/verify\.json: cannot read: ENOENT$/ },
  { name: 'merge: not JSON', argv: ['merge', '{file}'], file: '{"schema": ', code: 3, line: /^fencecheck merge: .*: not JSON: / },
  {
    name: 'merge: not a verify report',
    argv: ['merge', '{file}'],
    file: '{"schema": "fencecheck.stage/1"}',
    code: 3,
    line: /^fencecheck merge: .*: not a verify report \(schema fencecheck\.verify\/2\)$/,
  },
  {
    name: 'merge: an unsharded verify report',
    argv: ['merge', '{file}'],
    file: JSON.stringify({ schema: 'fencecheck.verify/2', options: { stages: [] }, stages: [] }),
    code: 3,
    line: /^fencecheck merge: .*: not a shard's report \(run it with verify --shard i\/n\)$/,
  },
  {
    name: 'merge: a missing shard is never a pass',
    argv: ['merge', '{file}'],
    file: JSON.stringify({ schema: 'fencecheck.verify/2', options: { stages: [], shard: { index: 1, count: 2 } }, stages: [] }),
    code: 3,
    line: /^fencecheck merge: shard 2\/2 missing \(1 of 2 reports given\): a merge of some parts is no verdict$/,
  },
  {
    name: 'merge: a shard given twice',
    argv: ['merge', '{file}', '{file}'],
    file: JSON.stringify({ schema: 'fencecheck.verify/2', options: { stages: [], shard: { index: 1, count: 2 } }, stages: [] }),
    code: 3,
    line: /^fencecheck merge: shard 1\/2 given twice \(.* and .*\)$/,
  },
  { name: '--show -1 is out of range, not "ambiguous"', argv: ['parity', '--show', '-1'], code: 64, line: usage('parity', /--show takes an integer from 0/) },
  { name: '--workers 0 is out of range', argv: ['tlc', '--workers', '0'], code: 64, line: usage('tlc', int('--workers')) },
  { name: '--timeout 1e3 is refused', argv: ['tlc', '--timeout', '1e3'], code: 64, line: usage('tlc', int('--timeout')) },
  { name: '--shards 0x3 is refused', argv: ['topology', 'start', '--kind', 'cluster', '--shards', '0x3'], code: 64, line: usage('topology', int('--shards')) },
  { name: '--door-runs -1 is out of range', argv: ['props', '--door-runs', '-1'], code: 64, line: usage('props', /--door-runs takes an integer from 0/) },

  // --- other option values
  { name: 'limiter: unknown --topology', argv: ['limiter', '--topology', 'mesh'], code: 64, line: usage('limiter', /--topology is standalone, cluster or both/) },
  { name: 'props: unknown --invariant', argv: ['props', '--invariant', 'Inv_Nope'], code: 64, line: usage('props', /--invariant is one of/) },
  { name: 'mutants: unknown --layer', argv: ['mutants', '--layer', 'nope'], code: 64, line: usage('mutants', /unknown layer 'nope'/) },
  {
    name: 'limiter: a missing --patch file is bad input',
    argv: ['limiter', '--patch', '/nonexistent/patch.ts'],
    code: 3,
    line: /^fencecheck limiter: bad --patch \/nonexistent\/patch\.ts: patch file \/nonexistent\/patch\.ts does not exist$/,
  },
  {
    name: 'limiter: a --patch file that is no LimiterPatch is bad input',
    argv: ['limiter', '--patch', 'test/fixtures/patches/fencing/release-reworded.ts'],
    code: 3,
    line: /^fencecheck limiter: bad --patch test\/fixtures\/patches\/fencing\/release-reworded\.ts: .* default-exports .*, not a LimiterPatch/,
  },

  // --- mutants ("--only M42 exits 0 with nothing run"; unknown expectedInvariant / missing patch is 1, not 3)
  { name: 'mutants --only M42 is usage, nothing run', argv: ['mutants', '--only', 'M42'], code: 64, line: usage('mutants', /--only: unknown mutant 'M42'/) },
  {
    name: 'mutants: a selection with no mutant on the layer is usage',
    argv: ['mutants', '--layer', 'tla', '--only', 'L1'],
    code: 64,
    line: usage('mutants', /no mutant of L1 has the layer\(s\) tla/),
  },
  {
    name: 'mutants: an unknown expectedInvariant is bad input (3), not a verdict (1)',
    argv: ['mutants', '--layer', 'model', '--only', 'M1'],
    manifest: (m) => ((m.mutants[0]!.expectedInvariant = 'Inv_Nope'), m),
    code: 3,
    line: /^fencecheck mutants: .*M1: unknown expectedInvariant "Inv_Nope"/,
  },
  {
    name: 'mutants: a missing patch file is bad input (3), not a verdict (1)',
    argv: ['mutants', '--layer', 'model', '--only', 'M1'],
    manifest: (m) => ((m.mutants[0]!.layers.model = { patch: 'mutants/fencing/model/NOPE.ts' }), m),
    code: 3,
    line: /^fencecheck mutants: .*M1\.model: patch file mutants\/fencing\/model\/NOPE\.ts does not exist/,
  },
  { name: 'mutants: a manifest that is not JSON', argv: ['mutants', '--layer', 'model'], manifest: '{ not json', code: 3, line: /^fencecheck mutants: cannot read mutant manifest/ },
  { name: 'explore: an unknown --mutant is bad input', argv: ['explore', '--mutant', 'M42'], code: 3, line: /^fencecheck explore: no model-layer mutant M42/ },
  { name: 'props: an unknown --mutant is bad input', argv: ['props', '--mutant', 'M42'], code: 3, line: /^fencecheck props: no impl mutant M42/ },
  { name: 'props --mutant with a malformed manifest is bad input, not a crash', argv: ['props', '--mutant', 'M1'], manifest: '[]', code: 3, line: /^fencecheck props: .*schema must be/ },
  { name: 'conform: an unknown --mutant is bad input', argv: ['conform', '--mutant', 'M42'], code: 3, line: /^fencecheck conform: no impl-layer mutant M42/ },

  // --- a user's own patch: conform --patch, mutants --patch, the patch a trace records
  { name: 'conform --patch: a missing file', argv: ['conform', '--patch', '/nonexistent/p.mts'], code: 3, line: /^fencecheck conform: patch file \/nonexistent\/p\.mts does not exist$/ },
  {
    name: 'conform --patch: a file that cannot be loaded',
    argv: ['conform', '--patch', '{file}'],
    file: 'export default {{ not javascript',
    code: 3,
    line: /^fencecheck conform: patch file .*row-\d+ cannot be loaded: /,
  },
  {
    name: 'conform --patch: a patch of a system without a tour',
    argv: ['conform', '--patch', 'mutants/limiter/impl/L1.ts'],
    code: 3,
    line: /^fencecheck conform: mutants\/limiter\/impl\/L1\.ts default-exports .*, no patch of a system with a tour \(fencing: a fencing ImplPatch.*; pause: a PausePatch.*; init-limiter: an InitLimiterPatch/,
  },
  {
    name: 'conform --patch: a model patch is no impl patch',
    argv: ['conform', '--patch', 'mutants/fencing/model/M1.ts', '--system', 'fencing'],
    code: 3,
    line: /^fencecheck conform: mutants\/fencing\/model\/M1\.ts is no patch of fencing: it default-exports .*, not a fencing ImplPatch/,
  },
  {
    name: 'conform --patch with --mutant',
    argv: ['conform', '--patch', 'mutants/fencing/impl/M1.ts', '--mutant', 'M1'],
    code: 64,
    line: usage('conform', /give --mutant ID or --patch FILE, not both/),
  },
  {
    name: 'conform --patch with --shard',
    argv: ['conform', '--patch', 'mutants/fencing/impl/M1.ts', '--shard', '1/2'],
    code: 64,
    line: usage('conform', /--shard applies to the full conformance tour, not to --patch/),
  },
  {
    name: 'conform --patch: --system of a system without a tour',
    argv: ['conform', '--patch', 'mutants/fencing/impl/M1.ts', '--system', 'failover'],
    code: 64,
    line: usage('conform', /--system: failover has no tour/),
  },
  {
    name: 'conform --patch: an unknown --invariant, refused before any server',
    argv: ['conform', '--patch', 'mutants/fencing/impl/M1.ts', '--invariant', 'Inv_Nope'],
    code: 64,
    line: usage('conform', /--invariant: unknown invariant 'Inv_Nope' of fencing/),
  },
  { name: 'conform --safety-only without --patch', argv: ['conform', '--safety-only'], code: 64, line: usage('conform', /--safety-only applies to --patch FILE/) },
  {
    name: 'conform --patch --safety-only with --invariant',
    argv: ['conform', '--patch', 'mutants/fencing/impl/M1.ts', '--safety-only', '--invariant', 'Inv_Monotonic'],
    code: 64,
    line: usage('conform', /give --safety-only .* or --invariant NAME .*, not both/),
  },
  { name: 'mutants --const without --patch', argv: ['mutants', '--const', 'Pods=1'], code: 64, line: usage('mutants', /--const applies to --patch FILE without --expect/) },
  {
    name: 'mutants --patch --const with --expect',
    argv: ['mutants', '--patch', 'mutants/fencing/impl/M1.ts', '--expect', 'Inv_Monotonic', '--const', 'Pods=1'],
    code: 64,
    line: usage('mutants', /--const applies to --patch FILE without --expect/),
  },
  {
    name: 'mutants --patch: a --const the tour does not know, refused before any server',
    argv: ['mutants', '--patch', 'mutants/fencing/impl/M1.ts', '--const', 'Nope=1'],
    code: 64,
    line: /Nope/,
  },
  { name: 'mutants --expect without --patch', argv: ['mutants', '--expect', 'Inv_Monotonic'], code: 64, line: usage('mutants', /--expect applies to --patch FILE/) },
  { name: 'mutants --patch with --only', argv: ['mutants', '--patch', 'mutants/fencing/impl/M1.ts', '--only', 'M1'], code: 64, line: usage('mutants', /--patch runs the impl layer alone/) },
  {
    name: 'mutants --patch: an unknown --expect',
    argv: ['mutants', '--patch', 'mutants/fencing/impl/M1.ts', '--expect', 'Inv_Nope'],
    code: 64,
    line: usage('mutants', /--expect: unknown invariant 'Inv_Nope' of fencing/),
  },
  { name: 'mutants --patch: a missing file', argv: ['mutants', '--patch', '/nonexistent/p.mts'], code: 3, line: /^fencecheck mutants: patch file \/nonexistent\/p\.mts does not exist$/ },
  {
    name: 'mutants --patch: no system with a tour takes it',
    argv: ['mutants', '--patch', 'mutants/limiter/impl/L1.ts'],
    code: 3,
    line: /^fencecheck mutants: .*no patch of a system with a tour .*; for another system give --system$/,
  },
  {
    name: 'mutants --patch --system limiter: a file that is no limiter patch',
    argv: ['mutants', '--patch', 'test/fixtures/patches/fencing/release-reworded.ts', '--system', 'limiter'],
    code: 3,
    line: /^fencecheck mutants: test\/fixtures\/patches\/fencing\/release-reworded\.ts is no patch of limiter: it default-exports .*, not a LimiterPatch \(\{ transformSource\?, wrapCall\? \}\)$/,
  },
  {
    name: 'mutants --patch --system limiter: --const is a tour bound',
    argv: ['mutants', '--patch', 'mutants/limiter/impl/L1.ts', '--system', 'limiter', '--const', 'Pods=1'],
    code: 64,
    line: usage('mutants', /--const applies to --patch FILE without --expect on a system with a tour/),
  },
  {
    name: 'trace show: a malformed patch record',
    argv: ['trace', 'show', '{file}'],
    file: (t) => ({ ...t, patch: { path: 'p.mts', sha256: 'abc' } }),
    code: 3,
    line: /^fencecheck trace: .*patch must be \{path, sha256\}/,
  },
  {
    name: 'trace replay: the recorded patch file is gone',
    argv: ['trace', 'replay', '{file}'],
    file: (t) => ({ ...t, patch: { path: '/nonexistent/p.mts', sha256: '0'.repeat(64) } }),
    code: 3,
    line: /^fencecheck trace: patch file \/nonexistent\/p\.mts does not exist$/,
  },
  {
    name: 'trace replay: the recorded patch file changed since',
    argv: ['trace', 'replay', '{file}'],
    file: (t) => ({ ...t, patch: { path: 'mutants/fencing/impl/M1.ts', sha256: '0'.repeat(64) } }),
    code: 3,
    line: /^fencecheck trace: patch file mutants\/fencing\/impl\/M1\.ts changed since the trace was made \(sha256 [0-9a-f]{12}…, the trace recorded 000000000000…\)$/,
  },
  {
    name: "trace replay: the recorded patch is no patch of the trace's system",
    argv: ['trace', 'replay', '{file}'],
    file: (t) => ({ ...t, patch: { path: 'mutants/pause/impl/P1.ts', sha256: sha256Of('mutants/pause/impl/P1.ts') } }),
    code: 3,
    line: /^fencecheck trace: .*patch file mutants\/pause\/impl\/P1\.ts default-exports no fencing patch/,
  },

  // --- evidence ("exits 1 on a malformed manifest where other commands exit 3")
  {
    name: 'evidence: a malformed manifest is bad input (3), not stale evidence (1)',
    argv: ['evidence'],
    manifest: (m) => ({ ...m, schema: 'fencecheck.mutants/0' }),
    code: 3,
    line: /^fencecheck evidence: .*schema must be "fencecheck\.mutants\/1"/,
  },

  // --- trace show (first step not Init, negative bounds, hangs on a FIFO)
  { name: 'trace: no subcommand', argv: ['trace'], code: 64, line: usage('trace', /missing subcommand/) },
  { name: 'trace: unknown subcommand', argv: ['trace', 'frob'], code: 64, line: usage('trace', /unknown subcommand 'frob'/) },
  { name: 'trace show: no FILE', argv: ['trace', 'show'], code: 64, line: usage('trace', /expected one trace FILE, got 0/) },
  { name: 'trace show: two output formats', argv: ['trace', 'show', '--mermaid', '--svg', '{file}'], file: (t) => t, code: 64, line: usage('trace', /choose one of/) },
  { name: 'trace show: a missing file', argv: ['trace', 'show', '/nonexistent/trace.json'], code: 3, line: /^fencecheck trace: cannot read trace \/nonexistent\/trace\.json/ },
  { name: 'trace show: a FIFO is refused, not read (it would hang)', argv: ['trace', 'show', '{file}'], file: 'fifo', code: 3, line: /^fencecheck trace: cannot read trace .*: not a regular file$/ },
  { name: 'trace show: a directory is refused', argv: ['trace', 'show', '{file}'], file: 'dir', code: 3, line: /^fencecheck trace: cannot read trace .*: not a regular file$/ },
  { name: 'trace show: not JSON', argv: ['trace', 'show', '{file}'], file: '{"schema": ', code: 3, line: /^fencecheck trace: .*: not JSON/ },
  { name: 'trace show: JSON null', argv: ['trace', 'show', '{file}'], file: 'null', code: 3, line: /^fencecheck trace: .*: not a JSON object$/ },
  {
    name: 'trace show: the wrong schema',
    argv: ['trace', 'show', '{file}'],
    file: (t) => ({ ...t, schema: 'fencecheck.trace/9' }),
    code: 3,
    line: /^fencecheck trace: .*schema must be "fencecheck\.trace\/2"/,
  },
  { name: 'trace show: no steps', argv: ['trace', 'show', '{file}'], file: (t) => ({ ...t, steps: [] }), code: 3, line: /^fencecheck trace: .*steps must be a non-empty array/ },
  {
    name: 'trace show: the first step is not Init',
    argv: ['trace', 'show', '{file}'],
    file: (t) => ({ ...t, steps: t.steps.slice(1) }),
    code: 3,
    line: /^fencecheck trace: .*steps\[0\]\.action must be "Init"/,
  },
  {
    name: 'trace show: a negative maxGen (bounds the system cannot take)',
    argv: ['trace', 'show', '{file}'],
    file: (t) => ({ ...t, bounds: { ...t.bounds, maxGen: -1 } }),
    code: 3,
    line: /^fencecheck trace: .*fencing bounds: maxGen must be a non-negative integer/,
  },
  {
    name: 'trace show: no pods',
    argv: ['trace', 'show', '{file}'],
    file: (t) => ({ ...t, bounds: { ...t.bounds, pods: [] } }),
    code: 3,
    line: /^fencecheck trace: .*fencing bounds: pods must be distinct pod names/,
  },
  {
    name: 'trace show: a state that lacks a variable',
    argv: ['trace', 'show', '{file}'],
    file: (t) => withStep(t, 1, (s) => (s.state = { version: 'all of them' })),
    code: 3,
    line: /^fencecheck trace: .*steps\[1\]\.state lacks variable target/,
  },
  {
    name: "trace show: a state that is not the system's",
    argv: ['trace', 'show', '{file}'],
    file: (t) => withStep(t, 1, (s) => (s.state = { ...s.state, version: 'all of them' })),
    code: 3,
    line: /^fencecheck trace: .*steps\[1\] is not a state of the fencing model: version: expected a function, got str/,
  },
  {
    name: 'trace show: a value that is no ITF value',
    argv: ['trace', 'show', '{file}'],
    file: (t) => withStep(t, 1, (s) => (s.state = { ...s.state, oldGen: 1.5 })),
    code: 3,
    line: /^fencecheck trace: .*steps\[1\]\.state\.oldGen: 1\.5 is not an integer \(an ITF value\)$/,
  },
  { name: 'trace show: an unknown field', argv: ['trace', 'show', '{file}'], file: (t) => ({ ...t, colour: 'red' }), code: 3, line: /^fencecheck trace: .*unknown field "colour"$/ },
  {
    name: 'trace show: --system of a file of another spec',
    argv: ['trace', 'show', 'test/tlc/fixtures/values.dumptrace.json', '--system', 'fencing'],
    code: 3,
    line: /^fencecheck trace: .*the first state is not a state of the fencing model: state has no variable version$/,
  },

  // --- trace replay (unknown action, pod outside the bounds, no pods — checked before any server starts)
  {
    name: 'trace replay: an unknown action',
    argv: ['trace', 'replay', '{file}'],
    file: (t) => withStep(t, 1, (s) => (s.action = 'Teleport')),
    code: 3,
    line: /^fencecheck trace: .*steps\[1\]: unknown action "Teleport"/,
  },
  {
    name: 'trace replay: a pod outside the bounds',
    argv: ['trace', 'replay', '{file}'],
    file: (t) => withStep(t, 1, (s) => (s.params = { p: 'p7' })),
    code: 3,
    line: /^fencecheck trace: .*steps\[1\]: pod "p7" is not one of the trace's bounds\.pods/,
  },
  {
    name: 'trace replay: a pod action without its pod',
    argv: ['trace', 'replay', '{file}'],
    file: (t) => withStep(t, 2, (s) => (s.params = {})),
    code: 3,
    line: /^fencecheck trace: .*steps\[2\]: UpgradePod needs a pod/,
  },
  {
    name: 'trace replay: no pods',
    argv: ['trace', 'replay', '{file}'],
    file: (t) => ({ ...t, bounds: { ...t.bounds, pods: [] } }),
    code: 3,
    line: /^fencecheck trace: .*fencing bounds: pods must be distinct pod names/,
  },
  { name: 'trace replay: a missing file', argv: ['trace', 'replay', '/nonexistent/trace.json'], code: 3, line: /^fencecheck trace: cannot read trace/ },
  // --- lua-check
  { name: 'lua-check: an unknown --fail-on', argv: ['lua-check', '--fail-on', 'fatal'], code: 64, line: usage('lua-check', /--fail-on takes error or warning, got 'fatal'/) },
  { name: 'lua-check: an invalid --include-pattern', argv: ['lua-check', '--include-pattern', '('], code: 64, line: usage('lua-check', /--include-pattern: Invalid regular expression/) },
  { name: 'lua-check: an --include-pattern without a capture group', argv: ['lua-check', '--include-pattern', 'include'], code: 64, line: usage('lua-check', /needs one capture group/) },
  { name: 'lua-check: --save-snapshot without --node', argv: ['lua-check', '--save-snapshot', 'x.json'], code: 64, line: usage('lua-check', /--save-snapshot needs --node/) },
  { name: 'lua-check: a --node that is no endpoint', argv: ['lua-check', '--node', 'nohost'], code: 64, line: usage('lua-check', /--node: not a valkey endpoint: 'nohost'/) },
  { name: 'lua-check: an empty --junit', argv: ['lua-check', '--junit='], code: 64, line: usage('lua-check', /--junit takes a file name/) },
  { name: 'lua-check: an unknown --format', argv: ['lua-check', '--format', 'xml'], code: 64, line: usage('lua-check', /--format takes text, json or sarif, got 'xml'/) },
  { name: 'lua-check: --json with --format sarif', argv: ['lua-check', '--json', '--format', 'sarif'], code: 64, line: usage('lua-check', /--json and --format sarif ask for two outputs/) },
  {
    name: 'lua-check: a --key-prefix-arg that is no ARGV position',
    argv: ['lua-check', '--key-prefix-arg', '0'],
    code: 64,
    line: usage('lua-check', /--key-prefix-arg takes an ARGV position \(1, 2, …\), got '0'/),
  },
  { name: 'lua-check: a --key-prefix-arg that is no number', argv: ['lua-check', '--key-prefix-arg', 'ARGV[1]'], code: 64, line: usage('lua-check', /--key-prefix-arg takes an ARGV position/) },
  {
    name: 'lua-check: a Lua syntax error is bad input, with file, line and column',
    argv: ['lua-check', '{file}'],
    file: 'return redis.call(\n',
    code: 3,
    line: /^fencecheck lua-check: .*:2:1: Lua syntax error: /,
  },
  { name: 'lua-check: a missing file', argv: ['lua-check', '/nonexistent/x.lua'], code: 3, line: /^fencecheck lua-check: cannot read \/nonexistent\/x\.lua \(ENOENT\)$/ },
  {
    name: 'lua-check: a missing include names where it looked',
    argv: ['lua-check', '--includes', '{file}'],
    file: '--- @include "missing.lua"\n',
    code: 3,
    line: /^fencecheck lua-check: .*:1:1: cannot find include missing\.lua \(looked for it in .*\)$/,
  },
  // --- lua-check on users' scripts
  {
    name: 'lua-check: a UTF-16 file is one clear line (it was "Cannot read properties of undefined")',
    argv: ['lua-check', '{file}'],
    file: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("return redis.call('GET', KEYS[1])\n", 'utf16le')]),
    code: 3,
    line: /^fencecheck lua-check: .* is UTF-16 \(little-endian, with a byte-order mark\) text: Valkey runs a script's bytes as Lua source; save it as UTF-8 \(or ASCII\)$/,
  },
  {
    name: 'lua-check: UTF-16 without a byte-order mark',
    argv: ['lua-check', '{file}'],
    file: Buffer.from("return redis.call('GET', KEYS[1])\n", 'utf16le'),
    code: 3,
    line: /^fencecheck lua-check: .* is UTF-16 \(little-endian, no byte-order mark\) text/,
  },
  {
    name: 'lua-check: a UTF-8 byte-order mark (Valkey refuses it)',
    argv: ['lua-check', '{file}'],
    file: Buffer.from("\ufeffreturn redis.call('GET', KEYS[1])\n"),
    code: 3,
    line: /^fencecheck lua-check: .* begins with a UTF-8 byte-order mark, which Valkey's Lua compiler refuses/,
  },
  {
    name: 'lua-check: a file over the size limit is refused at once (100 MB ran 2.5 min, then V8 OOM)',
    argv: ['lua-check', '{file}'],
    file: Buffer.alloc(1024 * 1024 + 1, 0x20),
    code: 3,
    line: /^fencecheck lua-check: .* is 1048577 bytes, over the 1048576-byte limit for a script$/,
  },
  {
    name: 'lua-check: an ESC byte in a syntax error is escaped, never echoed',
    argv: ['lua-check', '{file}'],
    file: 'local x = 1 \x1b[2J +\n',
    code: 3,
    line: /^fencecheck lua-check: .*:1:14: Lua syntax error: unexpected symbol '\\x1b' near '1'$/,
  },
  {
    name: 'lua-check: a glob include says it is not supported',
    argv: ['lua-check', '--includes', '{file}'],
    file: '--- @include "includes/*"\n',
    code: 3,
    line: /^fencecheck lua-check: .*:1:1: include includes\/\*: glob patterns are not supported \(name each file\)$/,
  },
  {
    name: 'lua-check: an --include-path that is not a folder',
    argv: ['lua-check', '--include-path', '/nonexistent/lib'],
    code: 64,
    line: usage('lua-check', /--include-path \/nonexistent\/lib is not a directory/),
  },
  { name: 'lua-check: a folder with no .lua file checks nothing: bad input, never a pass', argv: ['lua-check', '{file}'], file: 'dir', code: 3, line: /^fencecheck lua-check: no \.lua files under / },
  { name: 'lua-check: a FIFO is refused, not read', argv: ['lua-check', '{file}'], file: 'fifo', code: 3, line: /^fencecheck lua-check: .* is not a regular file$/ },
  // --- tlc --spec and trace interchange
  { name: 'tlc: --config without --spec', argv: ['tlc', '--config', 'x.cfg'], code: 64, line: usage('tlc', /--config needs --spec FILE/) },
  { name: 'tlc: --lib without --spec', argv: ['tlc', '--lib', '/tmp'], code: 64, line: usage('tlc', /--lib needs --spec FILE/) },
  { name: 'tlc: TLC options without --spec', argv: ['tlc', '--', '-deadlock'], code: 64, line: usage('tlc', /-- TLC options needs --spec FILE/) },
  {
    name: 'tlc: --spec with --mutants',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--mutants'],
    code: 64,
    line: usage('tlc', /--mutants checks the project's specs; it cannot be combined with --spec/),
  },
  { name: 'tlc: --spec with --growth', argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--growth'], code: 64, line: usage('tlc', /--growth checks the project's spec/) },
  { name: 'tlc: -tool is not passed through', argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--', '-tool'], code: 64, line: usage('tlc', /TLC option -tool cannot be passed through/) },
  {
    name: 'tlc: -workers is not passed through',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--', '-workers', '2'],
    code: 64,
    line: usage('tlc', /-workers cannot be passed through: use --workers N/),
  },
  {
    name: 'tlc: -dumpTrace needs a format and a file',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--', '-dumpTrace', 'json'],
    code: 64,
    line: usage('tlc', /-dumpTrace takes a format and a file/),
  },
  { name: 'tlc: a missing --spec', argv: ['tlc', '--spec', '/nonexistent/Nope.tla'], code: 3, line: /^fencecheck tlc: failed: --spec \/nonexistent\/Nope\.tla does not exist/ },
  { name: 'tlc: --spec without a config beside it', argv: ['tlc', '--spec', 'test/tlc/specs/Liveness.tla'], code: 3, line: /the default config .*Liveness\.cfg does not exist/ },
  { name: 'tlc: --spec that is not a .tla file', argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.cfg'], code: 3, line: /not a \.tla file/ },
  {
    name: 'tlc: --java-opt that is no JVM option',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--java-opt', 'Xmx4g'],
    code: 64,
    line: usage('tlc', /--java-opt takes a JVM option \(-Xmx4g, -Dname=value\), got "Xmx4g"/),
  },
  {
    name: 'tlc: --java-opt cannot set the classpath',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--java-opt', '-cp'],
    code: 64,
    line: usage('tlc', /--java-opt -cp: fencecheck sets the classpath and the TLA\+ library itself/),
  },
  { name: 'tlc: --classpath without --spec', argv: ['tlc', '--classpath', 'mods.jar'], code: 64, line: usage('tlc', /--classpath needs --spec FILE/) },
  {
    name: 'tlc: a --classpath jar that is not there',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--classpath', '/nonexistent/mods.jar'],
    code: 3,
    line: /^fencecheck tlc: failed: --classpath \/nonexistent\/mods\.jar does not exist$/,
  },
  {
    name: 'tlc: a --lib jar that is not there',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--lib', '/nonexistent/CommunityModules-deps.jar'],
    code: 3,
    line: /^fencecheck tlc: failed: --lib \/nonexistent\/CommunityModules-deps\.jar does not exist$/,
  },
  {
    name: 'tlc: a TLA2TOOLS_JAR list with an entry that is not there is not run (2), naming it',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla'],
    env: { TLA2TOOLS_JAR: 'package.json:/nonexistent/mods.jar' },
    code: 2,
    line: /^fencecheck tlc: not run: TLA2TOOLS_JAR=package\.json:\/nonexistent\/mods\.jar: \/nonexistent\/mods\.jar does not exist$/,
  },
  { name: 'tlc: a --lib that is not a directory', argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--lib', '/nonexistent-lib'], code: 3, line: /--lib \/nonexistent-lib is not a directory/ },
  { name: 'trace import: no FILE', argv: ['trace', 'import'], code: 64, line: usage('trace', /expected one trace FILE, got 0/) },
  {
    name: 'trace import: a fencecheck trace is not foreign',
    argv: ['trace', 'import', 'evidence/tlc/fencing/M1.json'],
    code: 3,
    line: /neither TLC's -dumpTrace json .* \(it is already a fencecheck trace\)/,
  },
  { name: 'trace import: a malformed --const', argv: ['trace', 'import', '{file}', '--const', 'MaxGen'], file: (t) => t, code: 64, line: usage('trace', /--const takes NAME=VALUE/) },
  {
    name: 'trace import: a --const the system cannot take',
    argv: ['trace', 'import', 'test/tlc/fixtures/mutant-M1.dumptrace.json', '--const', 'MaxGen=x'],
    code: 3,
    line: /^fencecheck trace: .*MaxGen takes an integer from 0 to 12, got "x"$/,
  },
  {
    name: 'trace import: --system that has no model',
    argv: ['trace', 'import', 'test/tlc/fixtures/mutant-M1.dumptrace.json', '--system', 'nosuch'],
    code: 3,
    line: /^fencecheck trace: .*no system named nosuch has a model/,
  },
  {
    name: 'trace import: an ITF step no action of the system (nor of its model mutants) explains',
    argv: ['trace', 'import', '{file}'],
    file: (t) => ({ vars: t.vars, states: t.steps.map((s, i) => ({ ...s.state, ...(i === 4 ? { oldGen: { '#bigint': '3' } } : {}) })) }),
    code: 3,
    line: /^fencecheck trace: .*step 4 names no action, and no action of the fencing model \(nor of its model mutants\) turns state 3 into state 4$/,
  },
  {
    name: 'trace import: a --mutant that is no manifest id',
    argv: ['trace', 'import', '{file}', '--mutant', 'm1'],
    file: (t) => t,
    code: 64,
    line: usage('trace', /--mutant takes a manifest id such as M1/),
  },
  { name: 'trace export: no format', argv: ['trace', 'export', '{file}'], file: (t) => t, code: 64, line: usage('trace', /trace export needs a format: --itf/) },
  { name: 'trace export: a missing file', argv: ['trace', 'export', '/nonexistent.json', '--itf'], code: 3, line: /cannot read trace/ },
  {
    name: "trace replay: another spec's trace: could not run, no replay (exit 2)",
    argv: ['trace', 'replay', 'test/tlc/fixtures/values.dumptrace.json'],
    code: 2,
    line: /^fencecheck trace replay: could not run: system tla has no replay/,
  },
  {
    name: 'trace replay: an init-limiter trace at bounds its tour does not map: could not run (exit 2)',
    argv: ['trace', 'replay', 'test/trace/fixtures/init-limiter-I1.trace.json'],
    code: 2,
    line: /^fencecheck trace replay: could not run: the replay runs on the init-limiter tour's real side, which maps Chunks = PollChunks = 1 .*got Chunks = 2/,
  },
  {
    name: "trace replay: another system's mutant: could not run (exit 2)",
    argv: ['trace', 'replay', '{file}'],
    file: (t) => ({ ...t, mutant: 'P1' }),
    code: 2,
    line: /^fencecheck trace replay: could not run: mutant P1 is a pause mutant, not one of fencing$/,
  },
  { name: "trace show --mermaid: another spec's trace is drawn too", argv: ['trace', 'show', 'test/tlc/fixtures/values.dumptrace.json', '--mermaid'], code: 0, line: /^sequenceDiagram$/ },
  { name: 'trace import: an ITF trace with no states', argv: ['trace', 'import', '{file}'], file: '{"vars":[],"states":[]}', code: 3, line: /the ITF trace has no states/ },

  // --- cluster-matrix
  { name: 'cluster-matrix: an unknown --row', argv: ['cluster-matrix', '--row', 'nope'], code: 64, line: usage('cluster-matrix', /unknown row 'nope' \(rows: registry, pubsub/) },
  { name: 'cluster-matrix: --repeat 0 is out of range', argv: ['cluster-matrix', '--repeat', '0'], code: 64, line: usage('cluster-matrix', /--repeat takes an integer from 1 to 30, got "0"/) },
  { name: 'cluster-matrix: an unknown variant', argv: ['cluster-matrix', '--variant', 'presence=nope'], code: 64, line: usage('cluster-matrix', /--variant takes ROW=VARIANT .* got 'presence=nope'/) },

  // --- replication drill
  { name: 'failover: an unknown --variant', argv: ['failover', '--variant', 'nope'], code: 64, line: usage('failover', /unknown variant 'nope' \(variants: wait, none, wait0\)/) },
  {
    name: 'failover: --wait-timeout-ms 0 is out of range',
    argv: ['failover', '--wait-timeout-ms', '0'],
    code: 64,
    line: usage('failover', /--wait-timeout-ms takes an integer from 1 to 5000, got "0"/),
  },
  { name: 'failover: a non-numeric --wait-timeout-ms', argv: ['failover', '--wait-timeout-ms', 'x'], code: 64, line: usage('failover', /--wait-timeout-ms takes an integer/) },
  { name: 'failover: --cut-ms 99999 is out of range', argv: ['failover', '--cut-ms', '99999'], code: 64, line: usage('failover', /--cut-ms takes an integer from 0 to 5000, got "99999"/) },
  { name: 'failover: a negative --cut-ms', argv: ['failover', '--cut-ms=-1'], code: 64, line: usage('failover', /--cut-ms takes an integer from 0 to 5000, got "-1"/) },
  { name: 'failover: an unknown --provider', argv: ['failover', '--provider', 'x'], code: 64, line: usage('failover', /unknown provider 'x'/) },
  { name: 'failover: a positional argument', argv: ['failover', 'extra'], code: 64, line: usage('failover', /Unexpected argument 'extra'/) },

  // --- systems on the seam
  {
    name: 'systems: an unknown --system',
    argv: ['systems', '--system', 'nope'],
    code: 64,
    line: usage('systems', /--system: unknown system 'nope' \(one of fencing, failover, pause, init-limiter, or all\)/),
  },

  // --- tlc --system (TLC for the seam systems)
  { name: 'tlc: an unknown --system', argv: ['tlc', '--system', 'nope'], code: 64, line: usage('tlc', /--system: unknown system 'nope' \(one of fencing, failover, pause, init-limiter, or all\)/) },
  {
    name: 'tlc: --system with --spec',
    argv: ['tlc', '--spec', 'test/tlc/specs/Deadlock.tla', '--system', 'pause'],
    code: 64,
    line: usage('tlc', /--system checks the project's specs; it cannot be combined with --spec/),
  },
  { name: 'tlc: --growth without a grid', argv: ['tlc', '--system', 'pause', '--growth'], code: 64, line: usage('tlc', /--growth needs at least one --const NAME=V1,V2,/) },
  {
    name: 'tlc: --growth of two systems',
    argv: ['tlc', '--system', 'pause', '--system', 'fencing', '--growth', '--const', 'Pods=2,3'],
    code: 64,
    line: usage('tlc', /--growth measures one system: give one --system \(pause, fencing given\)/),
  },
  {
    name: 'tlc --system: no jar is not run (2), one line',
    argv: ['tlc', '--system', 'pause', '--mutants'],
    env: { TLA2TOOLS_JAR: '/nonexistent/tla2tools.jar' },
    code: 2,
    line: /^fencecheck tlc: not run: TLA2TOOLS_JAR=\/nonexistent\/tla2tools\.jar does not exist$/,
  },

  // --- diff
  { name: 'diff: no files', argv: ['diff'], code: 64, line: usage('diff', 'takes two files, OLD.json and NEW.json; got 0') },
  { name: 'diff: one file', argv: ['diff', 'a.json'], code: 64, line: usage('diff', 'got 1') },
  { name: 'diff: three files', argv: ['diff', 'a', 'b', 'c'], code: 64, line: usage('diff', 'got 3') },
  {
    name: 'a trace folder that cannot be one is bad input before the command starts',
    argv: ['explore', '--system', 'fencing', '--const', 'MaxGen=1'],
    env: { FENCECHECK_TRACE_DIR: '/dev/null/traces' },
    code: 3,
    line: /^fencecheck explore: FENCECHECK_TRACE_DIR=\/dev\/null\/traces: \/dev\/null is not a folder \(the trace folder must be one, or be creatable\)$/,
  },
  { name: 'diff: wrong schema', argv: ['diff', '{file}', '{file}'], file: '{"schema":"x"}', code: 3, line: /^fencecheck diff: .*: not a fencecheck\.verify\/2 document \(schema "x"\)$/ },
  { name: 'diff: not JSON', argv: ['diff', '{file}', '{file}'], file: '', code: 3, line: /^fencecheck diff: .*: not JSON: / },
  { name: 'diff: a JSON array', argv: ['diff', '{file}', '{file}'], file: '[1,2]', code: 3, line: /^fencecheck diff: .*: not a JSON object$/ },
  { name: 'diff: a FIFO is refused, not read', argv: ['diff', '{file}', '{file}'], file: 'fifo', code: 3, line: /^fencecheck diff: .*: not a regular file$/ },
  { name: 'diff: a directory', argv: ['diff', '{file}', '{file}'], file: 'dir', code: 3, line: /^fencecheck diff: .*: not a regular file$/ },
  { name: 'diff: a missing file', argv: ['diff', '/nonexistent/old.json', '/nonexistent/new.json'], code: 3, line: /^fencecheck diff: \/nonexistent\/old\.json: cannot read: ENOENT/ },
  { name: 'trace replay: an unknown --provider', argv: ['trace', 'replay', '--provider', 'cloud', '{file}'], file: (t) => t, code: 64, line: usage('trace', /--provider: unknown provider 'cloud'/) },

  // --- the environment, checked before anything starts
  {
    name: 'env: FENCECHECK_COMMAND_TIMEOUT_MS beyond a timer is bad input (it was cut to 1 ms by Node)',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_COMMAND_TIMEOUT_MS: '3000000000' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_COMMAND_TIMEOUT_MS=3000000000 is not an integer from 1 to 2147483647 \(milliseconds\)$/,
  },
  {
    name: 'env: FENCECHECK_CONNECT_TIMEOUT_MS=0',
    argv: ['gate', '--check', 'advance', '--url', '127.0.0.1:1', '--target', 'A', '--pods', 'p1=A'],
    env: { FENCECHECK_CONNECT_TIMEOUT_MS: '0' },
    code: 3,
    line: /^fencecheck gate: FENCECHECK_CONNECT_TIMEOUT_MS=0 is not an integer from 1 to/,
  },
  {
    name: 'env: FENCECHECK_VALKEY_URL=garbage is bad input before a server starts (it was "the cluster 1 shard did not form", exit 2)',
    argv: ['limiter', '--runs', '1'],
    env: { FENCECHECK_VALKEY_URL: 'garbage' },
    code: 3,
    line: /^fencecheck limiter: FENCECHECK_VALKEY_URL: not a valkey endpoint: 'garbage'/,
  },
  {
    name: 'env: a malformed URL never shows its password',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_URL: 'redis://:p@ss w/rd@h:x' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_VALKEY_URL: not a valkey endpoint: 'redis:\/\/\*\*\*@h:x'/,
  },
  {
    name: 'env: an unknown scheme in a seed list',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_CLUSTER: '127.0.0.1:7000,http://127.0.0.1:7001' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_VALKEY_CLUSTER: seed 2 of 2: unknown scheme 'http:\/\/'/,
  },
  {
    name: 'env: a comma cutting a password is not shown',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_CLUSTER: 'redis://:se,cret@127.0.0.1:7000' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_VALKEY_CLUSTER: seed 1 of 2: .*not shown: it may hold part of a password/,
  },
  {
    name: 'env: FENCECHECK_ALLOW_DESTRUCTIVE=yes',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_ALLOW_DESTRUCTIVE: 'yes' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_ALLOW_DESTRUCTIVE=yes is not 0 or 1$/,
  },
  {
    name: 'env: an unknown FENCECHECK_VALKEY_PROVIDER',
    argv: ['conform'],
    env: { FENCECHECK_VALKEY_PROVIDER: 'cloud' },
    code: 3,
    line: /^fencecheck conform: FENCECHECK_VALKEY_PROVIDER=cloud is not one of auto, native, testcontainers, external$/,
  },
  {
    name: 'env: a misspelt variable names the closest',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_URI: '127.0.0.1:6379' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_VALKEY_URI is not a fencecheck variable \(did you mean FENCECHECK_VALKEY_URL\?\)/,
  },
  {
    name: 'env: TLS material beside a plain endpoint (the password would go out in clear)',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_URL: 'redis://:pw@127.0.0.1:6379', FENCECHECK_TLS_SERVERNAME: 'valkey.test' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_TLS_SERVERNAME is set but FENCECHECK_VALKEY_URL is not a rediss:\/\/ \(TLS\) endpoint/,
  },
  {
    name: 'env: a client certificate without its key',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_URL: 'rediss://127.0.0.1:6379', FENCECHECK_TLS_CERT: 'package.json' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_TLS_CERT=package\.json is not PEM .*; FENCECHECK_TLS_CERT is set without FENCECHECK_TLS_KEY/,
  },
  {
    name: 'env: a CA file that is not there',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_URL: 'rediss://127.0.0.1:6379', FENCECHECK_TLS_CA: '/nonexistent/ca.pem' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_TLS_CA=\/nonexistent\/ca\.pem: cannot read it \(ENOENT\)/,
  },
  {
    name: 'env: rediss:// mixed with plain seeds',
    argv: ['props', '--runs', '1'],
    env: { FENCECHECK_VALKEY_CLUSTER: 'rediss://127.0.0.1:7000,127.0.0.1:7001' },
    code: 3,
    line: /^fencecheck props: FENCECHECK_VALKEY_CLUSTER mixes rediss:\/\/ and plain seeds/,
  },
  {
    name: 'env: FENCECHECK_PROGRESS_MS=-1',
    argv: ['explore', '--system', 'fencing', '--const', 'Pods=1'],
    env: { FENCECHECK_PROGRESS_MS: '-1' },
    code: 3,
    line: /^fencecheck explore: FENCECHECK_PROGRESS_MS=-1 is not an integer from 0 to 86400000/,
  },
  {
    // The bin reads it first (only 1 sends it to the sources); any other value than 0 or 1 is bad input.
    name: 'env: FENCECHECK_FROM_SOURCE=yes',
    argv: ['explore', '--system', 'fencing', '--const', 'Pods=1'],
    env: { FENCECHECK_FROM_SOURCE: 'yes' },
    code: 3,
    line: /^fencecheck explore: FENCECHECK_FROM_SOURCE=yes is not 0 or 1/,
  },
  {
    name: 'gate --url with an unknown scheme is usage',
    argv: ['gate', '--check', 'advance', '--url', 'http://127.0.0.1:1', '--target', 'A', '--pods', 'p1=A'],
    code: 64,
    line: usage('gate', /unknown scheme 'http:\/\/'/),
  },
  // --- the gate reading the fleet: its sources and the deploy record
  ...(
    [
      ['two phase sources', ['--pods', 'p1=A', '--metrics', 'http://127.0.0.1:9/metrics'], /give the pods' phases one way/],
      ['no phase source', ['--target', 'A'], /the pods' phases are required/],
      ['--metrics without ReplicaSets', ['--metrics', 'http://127.0.0.1:9/metrics', '--target', 'A'], /reading the fleet needs its ReplicaSets/],
      ['two ReplicaSet sources', ['--prometheus', 'http://127.0.0.1:9', '--replicasets', 'a.json', '--replicasets-cmd', 'true', '--target', 'A'], /give the ReplicaSets one way/],
      ['--replicasets with --pods', ['--pods', 'p1=A', '--replicasets', 'a.json', '--target', 'A'], /--replicasets goes with --metrics or --prometheus/],
      ['a --metrics that is not a URL', ['--metrics', '127.0.0.1:9', '--replicasets', 'a.json', '--target', 'A'], /--metrics takes an http:\/\/ or https:\/\/ URL/],
      ['--max-age 0', ['--prometheus', 'http://127.0.0.1:9', '--replicasets', 'a.json', '--target', 'A', '--max-age', '0'], /--max-age takes an integer from 1 to 86400/],
      ['--record with --target', ['--pods', 'p1=A', '--record', 'r.json', '--target', 'A'], /give it or --target\/--mode\/--backfilled, not both/],
      ['--apply without --record', ['--pods', 'p1=A', '--target', 'A', '--apply'], /--apply records the step in the deploy record: it needs --record FILE/],
    ] as const
  ).map(([what, extra, why]): Row => ({ name: `gate: ${what} is usage`, argv: ['gate', '--check', 'advance', '--url', '127.0.0.1:9', ...extra], code: 64, line: usage('gate', why) })),
  { name: 'rollout: --pods 0 is usage', argv: ['rollout', '--pods', '0'], code: 64, line: usage('rollout', /--pods takes an integer from 1 to 20, got "0"/) },
  { name: 'rollout: a non-numeric --seed is usage', argv: ['rollout', '--seed', 'x'], code: 64, line: usage('rollout', int('--seed')) },
  {
    name: 'rollout: an unknown --broken-gate is usage',
    argv: ['rollout', '--broken-gate', 'nope'],
    code: 64,
    line: usage('rollout', /unknown --broken-gate 'nope' \(one of skip-older-replicasets, image-tags, /),
  },
  { name: 'gate: --init-record without --record is usage', argv: ['gate', '--init-record'], code: 64, line: usage('gate', /--init-record needs --record FILE/) },
  {
    name: 'gate: a malformed deploy record is bad input',
    argv: ['gate', '--record', '{file}', '--init-record'],
    file: '{"format":"x"}',
    code: 3,
    line: /^fencecheck gate: bad input: deploy record .*: format is "x"/,
  },

  // --- pause model-driven run
  { name: 'pause: unknown flag', argv: ['pause', '--bogus'], code: 64, line: usage('pause', /Unknown option '--bogus'/) },
  { name: 'pause: --walks 0 is out of range', argv: ['pause', '--walks', '0'], code: 64, line: usage('pause', /--walks takes an integer from 1 to 10000, got "0"/) },
  { name: 'pause: a non-numeric --steps', argv: ['pause', '--steps', '1e3'], code: 64, line: usage('pause', int('--steps')) },
  { name: 'pause: --seed out of the 32-bit range', argv: ['pause', '--seed', '99999999999'], code: 64, line: usage('pause', int('--seed')) },
  { name: 'pause: a negative --walk', argv: ['pause', '--walk=-1'], code: 64, line: usage('pause', /--walk takes an integer from 0 to 10000, got "-1"/) },
  { name: 'pause: an unknown --topology', argv: ['pause', '--topology', 'mesh'], code: 64, line: usage('pause', /--topology is standalone or cluster, got 'mesh'/) },
  { name: 'pause: an unknown --provider', argv: ['pause', '--provider', 'x'], code: 64, line: usage('pause', /unknown provider 'x'/) },
  { name: 'pause: a positional argument', argv: ['pause', 'extra'], code: 64, line: usage('pause', /Unexpected argument 'extra'/) },
  { name: 'pause: a missing --patch file is bad input', argv: ['pause', '--patch', '/nonexistent/P1.ts'], code: 3, line: /^fencecheck pause: bad --patch \/nonexistent\/P1\.ts: no such file$/ },
  {
    name: 'pause: a --patch that is not a pause patch',
    argv: ['pause', '--patch', 'mutants/fencing/impl/M1.ts'],
    code: 3,
    line: /^fencecheck pause: bad --patch mutants\/fencing\/impl\/M1\.ts: .*default-exports no pause patch/,
  },

  // --- tracecheck: refused before TLC starts
  { name: 'tracecheck: no TRACE and no --observed', argv: ['tracecheck'], code: 64, line: usage('tracecheck', /give TRACE files, or --observed/) },
  { name: 'tracecheck: an unknown --system', argv: ['tracecheck', '--system', 'nope', '{file}'], file: '{}', code: 64, line: usage('tracecheck', /--system: unknown system 'nope'/) },
  { name: 'tracecheck: a missing file', argv: ['tracecheck', '/nonexistent/t.json'], code: 3, line: /^fencecheck tracecheck: \/nonexistent\/t\.json: cannot read \(ENOENT\)$/ },
  { name: 'tracecheck: a FIFO is refused, not read', argv: ['tracecheck', '{file}'], file: 'fifo', code: 3, line: /^fencecheck tracecheck: .*: cannot read: not a regular file$/ },
  { name: 'tracecheck: not JSON', argv: ['tracecheck', '{file}'], file: '{"steps": ', code: 3, line: /^fencecheck tracecheck: .*: not JSON/ },
  {
    name: 'tracecheck: a bundle of the wrong schema',
    argv: ['tracecheck', '{file}'],
    file: '{"schema": "fencecheck.trace/2", "traces": []}',
    code: 3,
    line: /^fencecheck tracecheck: .*: schema "fencecheck\.trace\/2", expected fencecheck\.observed\/1$/,
  },
  {
    name: 'tracecheck: a system without a spec',
    argv: ['tracecheck', '{file}'],
    file: '{"system": "limiter", "source": "x", "steps": [{}]}',
    code: 3,
    line: /^fencecheck tracecheck: trace x: unknown system 'limiter'/,
  },
  {
    name: 'tracecheck: a variable the spec lacks',
    argv: ['tracecheck', '{file}'],
    file: '{"system": "fencing", "source": "x", "steps": [{"vars": {"leases": "1"}}]}',
    code: 3,
    line: /^fencecheck tracecheck: x step 0: leases is not a variable of tla\/fencing\//,
  },
  {
    name: 'tracecheck: a value that is an expression',
    argv: ['tracecheck', '{file}'],
    file: '{"system": "fencing", "source": "x", "steps": [{"vars": {"oldGen": "oldGen + 1"}}]}',
    code: 3,
    line: /^fencecheck tracecheck: .*step 0 variable oldGen: not a TLA\+ value/,
  },
  {
    name: 'tracecheck: the first step claims an action',
    argv: ['tracecheck', '{file}'],
    file: '{"system": "fencing", "source": "x", "steps": [{"action": {"name": "Init"}}]}',
    code: 3,
    line: /^fencecheck tracecheck: .*step 0: the first step is the initial state: it claims no action$/,
  },
  {
    name: 'tracecheck: a trace that sets the mutation constant',
    argv: ['tracecheck', '{file}'],
    file: '{"system": "fencing", "source": "x", "constants": {"Dropped": "{\\"AcquireB_OldLeaseFree\\"}"}, "steps": [{}]}',
    code: 3,
    line: /^fencecheck tracecheck: a trace sets Dropped: traces are judged against the real spec \(Dropped = \{\}\)$/,
  },
];

interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

function runCli(root: string, argv: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<RunResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin/fencecheck.mjs'), ...argv], { cwd: root, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
  });
}

let work: string;
/** A valid fencecheck.trace/2 trace of the fencing system (the M1 counterexample). */
const validTrace = (): Trace => JSON.parse(JSON.stringify(m1Trace('tlc'))) as Trace;
const realManifest = (): Manifest => JSON.parse(readFileSync(join(ROOT, 'mutants/manifest.json'), 'utf8')) as Manifest;

/** A temp copy of the project (the parts the CLI reads) with its own mutants/manifest.json. */
function projectWith(manifest: string, dir: string): string {
  mkdirSync(dir);
  for (const part of ['bin', 'src', 'models', 'properties', 'mutants', 'tla', 'evidence', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'mutants/manifest.json'), manifest);
  return dir;
}

beforeAll(() => {
  work = ownedTempDir('bad-input');
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe.concurrent('bad-input catalogue: one clear line, the right exit code, never a stack', () => {
  CATALOGUE.forEach((row, i) => {
    it(`${String(i + 1).padStart(2, '0')} ${row.name}`, async () => {
      let file = join(work, `row-${i}`);
      if (row.file === 'fifo') execFileSync('mkfifo', [file]);
      else if (row.file === 'dir') mkdirSync(file);
      else if (typeof row.file === 'string' || Buffer.isBuffer(row.file)) writeFileSync(file, row.file);
      else if (typeof row.file === 'function') writeFileSync((file = `${file}.json`), JSON.stringify(row.file(validTrace())));
      let root = ROOT;
      if (row.manifest !== undefined) {
        const text = typeof row.manifest === 'string' ? row.manifest : JSON.stringify(row.manifest(realManifest()));
        root = projectWith(text, join(work, `project-${i}`));
      }
      const r = await runCli(
        root,
        row.argv.map((a) => a.replace('{file}', file)),
        row.env,
      );
      const lines = (row.code === 0 ? r.stdout : r.stderr).split('\n').filter((l) => l.trim() !== '');
      expect(r.timedOut, `timed out after ${TIMEOUT_MS} ms`).toBe(false);
      expect(`${r.stdout}\n${r.stderr}`, 'a stack trace was printed').not.toMatch(/^\s{4}at /m);
      expect({ code: r.code, line: lines[0] }).toEqual({ code: row.code, line: expect.stringMatching(row.line) });
      if (row.code !== 0) expect(lines, 'exactly one stderr line').toHaveLength(1);
    });
  });
});

describe('mutants --json', () => {
  it('prints a StageReport of stage "mutants" with the results in "mutants" (here: TLC not run)', async () => {
    const r = await runCli(ROOT, ['mutants', '--layer', 'tla', '--only', 'M1', '--json'], { TLA2TOOLS_JAR: '/nonexistent/tla2tools.jar' });
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as Json;
    expect(report).toMatchObject({ schema: 'fencecheck.stage/1', stage: 'mutants', status: 'not-run', counts: { mutants: 1, notRun: 1 } });
    expect(report.mutants).toEqual([expect.objectContaining({ id: 'M1', layer: 'tla', verdict: 'not-run' })]);
  });
});
