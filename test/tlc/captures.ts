/**
 * The real TLC runs whose output the parser tests read offline (test/tlc/fixtures/*.out, with TLC's
 * exit status and the inputs' SHA-256 in fixtures/captures.json). `capture-fixtures.ts` records them
 * with a jar; `live-captures.test.ts` re-runs them and requires the same parsed result.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-root.js';
import { sha256File } from '../../src/systems/fencing/tlc/config.js';
import type { TlcTools } from '../../src/tlc/locate.js';
import { runTlc, type TlcRun } from '../../src/tlc/run.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

export interface Capture {
  /** Fixture name: fixtures/<name>.out (and <name>.dumptrace.json with `dumpTrace`). */
  readonly name: string;
  /** Paths from the project root. */
  readonly spec: string;
  readonly config: string;
  /** TLC's default (deadlock checked) unless false, as src/tlc runs the project's spec (`-deadlock`). */
  readonly checkDeadlock: boolean;
  /** Also `-dumpTrace json FILE`. */
  readonly dumpTrace?: boolean;
  /** Further TLC options (as after `fencecheck tlc --spec … --`). */
  readonly extraArgs?: readonly string[];
  /** Also `-dump FILE` (every distinct state), kept as fixtures/<name>.dump. */
  readonly dump?: boolean;
  readonly shows: string;
}

const S = 'test/tlc/specs';

export const CAPTURES: readonly Capture[] = [
  { name: 'values', spec: `${S}/Values.tla`, config: `${S}/Values.cfg`, checkDeadlock: true, dumpTrace: true, shows: 'invariant violation; states hold an interval and every other value kind' },
  { name: 'liveness-loop', spec: `${S}/Liveness.tla`, config: `${S}/LivenessLoop.cfg`, checkDeadlock: true, dumpTrace: true, shows: 'temporal property Reaches3 violated; lasso back to state 1' },
  {
    name: 'liveness-stutter',
    spec: `${S}/Liveness.tla`,
    config: `${S}/LivenessStutter.cfg`,
    checkDeadlock: true,
    dumpTrace: true,
    shows: 'temporal property Reaches3 violated; stuttering in state 1',
  },
  { name: 'deadlock-small', spec: `${S}/Deadlock.tla`, config: `${S}/Deadlock.cfg`, checkDeadlock: true, shows: 'deadlock after 3 states' },
  { name: 'config-undefined', spec: `${S}/Deadlock.tla`, config: `${S}/ConfigUndefined.cfg`, checkDeadlock: true, shows: 'config error: the invariant is not defined (exit 151)' },
  { name: 'config-syntax', spec: `${S}/Deadlock.tla`, config: `${S}/ConfigSyntax.cfg`, checkDeadlock: true, shows: 'config error: .cfg syntax, nested in message 1000 (exit 255)' },
  {
    name: 'liveness-warning',
    spec: `${S}/LivenessWarning.tla`,
    config: `${S}/LivenessWarning.cfg`,
    checkDeadlock: true,
    shows: 'temporal property SettlesAt1 violated (stuttering) beside warning 2259 (a config-family code at severity 3); exit 13',
  },
  {
    name: 'missing-module',
    spec: `${S}/MissingModule.tla`,
    config: `${S}/MissingModule.cfg`,
    checkDeadlock: true,
    shows: 'SANY: cannot find source file for module NoSuchModule imported in module MissingModule (exit 150)',
  },
  {
    name: 'parse-expecting',
    spec: `${S}/ParseExpecting.tla`,
    config: `${S}/ParseExpecting.cfg`,
    checkDeadlock: true,
    shows: 'SANY parse error: "Was expecting" before "Encountered", and where the definition began (exit 150)',
  },
  { name: 'continue', spec: `${S}/Deadlock.tla`, config: `${S}/Continue.cfg`, checkDeadlock: false, extraArgs: ['-continue'], shows: '-continue: two error traces, each numbered from 1' },
  {
    name: 'mutant-M1',
    spec: 'tla/fencing/RedisClusterFencingMigration.tla',
    config: 'tla/fencing/mutants/M1.cfg',
    checkDeadlock: false,
    dumpTrace: true,
    shows: 'the M1 mutant as src/tlc runs it, plus -dumpTrace json',
  },
  // The seam systems as `fencecheck tlc --system` runs them (test/tlc/system-tlc.test.ts reads these).
  {
    name: 'replication-base',
    spec: 'tla/fencing/failover/FencingReplication.tla',
    config: 'tla/fencing/failover/FencingReplication.cfg',
    checkDeadlock: false,
    dump: true,
    shows: 'the replication base config with -dump: 742 distinct states, no violation',
  },
  {
    name: 'replication-R1',
    spec: 'tla/fencing/failover/FencingReplication.tla',
    config: 'tla/fencing/failover/mutants/R1.cfg',
    checkDeadlock: false,
    shows: 'R1 (no WAIT): Inv_Monotonic violated after 4 states',
  },
  {
    name: 'replication-R1-Inv_SingleAuthority',
    spec: 'tla/fencing/failover/FencingReplication.tla',
    config: 'tla/fencing/failover/mutants/R1-Inv_SingleAuthority.cfg',
    checkDeadlock: false,
    shows: 'R1 checked with Inv_SingleAuthority: violated by the same 4 states',
  },
  {
    name: 'pause-P5',
    spec: 'tla/pause/PauseSnapshot.tla',
    config: 'tla/pause/mutants/P5.cfg',
    checkDeadlock: false,
    shows: 'P5 (ready before the snapshot): Inv_ReadyAfterSnapshot violated after 2 states',
  },
];

export interface CaptureRecord {
  readonly name: string;
  readonly spec: string;
  readonly specSha256: string;
  readonly config: string;
  readonly configSha256: string;
  readonly flags: string;
  readonly tlcExit: number | null;
  readonly tlcVersion: string;
  readonly shows: string;
}

export const CAPTURE_INDEX = 'test/tlc/fixtures/captures.json';

export function readCaptureIndex(): { comment: string; captures: CaptureRecord[] } {
  return JSON.parse(readFileSync(join(projectRoot, CAPTURE_INDEX), 'utf8')) as { comment: string; captures: CaptureRecord[] };
}

export function fixturePath(name: string): string {
  return join(projectRoot, 'test/tlc/fixtures', name);
}

/** Runs one capture with real TLC; the -dumpTrace file's text when asked for. */
export async function runCapture(c: Capture, tools: TlcTools): Promise<{ run: TlcRun; dumpTrace?: string; record: Omit<CaptureRecord, 'tlcVersion'> }> {
  // The runner's -dump goes to its own scratch file; its text comes back as run.dumpText.
  const dir = ownedTempDir('capture');
  const out = join(dir, 'trace.json');
  try {
    const run = await runTlc({
      spec: join(projectRoot, c.spec),
      config: join(projectRoot, c.config),
      tools,
      workers: 1,
      checkDeadlock: c.checkDeadlock,
      timeoutMs: 120_000,
      ...(c.dump && { dump: true }),
      extraArgs: [...(c.extraArgs ?? []), ...(c.dumpTrace ? ['-dumpTrace', 'json', out] : [])],
    });
    let dumpTrace: string | undefined;
    try {
      if (c.dumpTrace) dumpTrace = readFileSync(out, 'utf8');
    } catch {
      /* no counterexample, no file */
    }
    const record = {
      name: c.name,
      spec: c.spec,
      specSha256: sha256File(join(projectRoot, c.spec)),
      config: c.config,
      configSha256: sha256File(join(projectRoot, c.config)),
      flags: `-tool${c.checkDeadlock ? '' : ' -deadlock'} -workers 1${c.extraArgs ? ` ${c.extraArgs.join(' ')}` : ''}${c.dumpTrace ? ' -dumpTrace json FILE' : ''}${c.dump ? ' -dump FILE' : ''}`,
      tlcExit: run.kind === 'completed' ? run.exitCode : null,
      shows: c.shows,
    };
    return { run, ...(dumpTrace !== undefined && { dumpTrace }), record };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
