import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { onProcessEnd } from '../core/process-end.js';
import { ownedTempDir, removeTempDir } from '../core/temp-dir.js';
import { TlcUnavailableError } from './errors.js';
import { reconcileExit } from './exit-status.js';
import { locateTlc, type TlcTools } from './locate.js';
import { parseToolOutput, splitToolOutput, type TlcResult } from './tool-output.js';

export interface TlcRunOptions {
  /**
   * The .tla file. TLC runs in a scratch directory that holds the spec's whole folder: every .tla
   * beside it copied (modules it EXTENDS; TLC may write trace modules next to them), every other
   * entry — data files the spec reads, Java module overrides (`Module.class`), subfolders — linked.
   */
  readonly spec: string;
  readonly config: string;
  /** Kill TLC after this long (default 10 minutes). */
  readonly timeoutMs?: number;
  /** Also write TLC's `-dump` of every distinct state and return its text. */
  readonly dump?: boolean;
  /**
   * Instead of the plain dump, write the labelled state graph (`-dump dot,actionlabels`, every state
   * and every generated successor with its action) and return it as `dotText`. TLC keeps only one
   * `-dump`, so this replaces `dump` (the states are the graph's nodes).
   */
  readonly graph?: boolean;
  /** Report deadlocks (default false: the spec has intended terminal states, as in the seed's `-deadlock`). */
  readonly checkDeadlock?: boolean;
  readonly workers?: number;
  readonly tools?: TlcTools;
  /** Directories searched for modules the spec EXTENDS or INSTANCEs (e.g. the community modules): TLC's `-DTLA-Library`. */
  readonly libDirs?: readonly string[];
  /** Jars (or folders) added to Java's classpath after the TLC jar: module jars (CommunityModules-deps.jar), override classes. */
  readonly classpath?: readonly string[];
  /** JVM options (`-Xmx4g`, `-Dtlc2.…=…`), before fencecheck's own. */
  readonly javaOptions?: readonly string[];
  /**
   * Further TLC options, passed through after fencecheck's own and before `-config` (see
   * src/tlc/pass-through.ts). TLC runs in a scratch directory, so file arguments must be absolute.
   */
  readonly extraArgs?: readonly string[];
  /** Stop TLC when it prints more than this (default 256 MiB). */
  readonly maxOutputBytes?: number;
}

export type TlcRun =
  | {
      readonly kind: 'completed';
      readonly result: TlcResult;
      readonly exitCode: number | null;
      readonly wallMs: number;
      readonly raw: string;
      readonly dumpText?: string;
      readonly dotText?: string;
    }
  | { readonly kind: 'timeout'; readonly wallMs: number; readonly timeoutMs: number; readonly raw: string };

/**
 * TLC's dot format with action labels. Not `strict` (that flag drops every edge whose endpoints'
 * fingerprints XOR to a value seen before), no colours, no snapshots, no liveness stuttering edges.
 */
export const DOT_FLAGS = 'dot,actionlabels';

/** The exact TLC command line (for reports and docs). */
export function tlcArgs(
  jar: string,
  config: string,
  spec: string,
  o: {
    dumpPath?: string;
    dotPath?: string;
    checkDeadlock?: boolean;
    workers?: number;
    metadir: string;
    libDirs?: readonly string[];
    extraArgs?: readonly string[];
    classpath?: readonly string[];
    javaOptions?: readonly string[];
  },
): string[] {
  return [
    ...(o.javaOptions ?? []),
    '-XX:+UseParallelGC',
    ...(o.libDirs && o.libDirs.length > 0 ? [`-DTLA-Library=${o.libDirs.join(delimiter)}`] : []),
    '-cp',
    [jar, ...(o.classpath ?? [])].join(delimiter),
    'tlc2.TLC',
    '-tool',
    ...(o.checkDeadlock ? [] : ['-deadlock']),
    '-workers',
    String(o.workers ?? 1),
    '-metadir',
    o.metadir,
    ...(o.dotPath ? ['-dump', DOT_FLAGS, o.dotPath] : o.dumpPath ? ['-dump', o.dumpPath] : []),
    ...(o.extraArgs ?? []),
    '-config',
    config,
    spec,
  ];
}

/**
 * Runs TLC with `-tool` in a scratch directory (TLC writes its states/ and trace files next to the
 * spec; the checkout stays clean) and parses the result. Throws TlcUnavailableError without Java or
 * the jar, TlcOutputError when the output is not TLC's.
 */
export async function runTlc(opts: TlcRunOptions): Promise<TlcRun> {
  let tools = opts.tools;
  if (!tools) {
    const found = locateTlc();
    if (!found.ok) throw new TlcUnavailableError(found.reason);
    tools = found.tools;
  }
  const work = ownedTempDir('tlc');
  try {
    // fencecheck's own files in the scratch directory: names no spec folder entry takes.
    const own = { cfg: `.fencecheck-run-${basename(opts.config)}`, meta: '.fencecheck-meta', dot: '.fencecheck-states.dot', dump: '.fencecheck-states.dump' };
    stageSpecFolder(dirname(resolve(opts.spec)), work, new Set(Object.values(own)));
    const cfgName = own.cfg;
    copyFileSync(opts.config, join(work, cfgName));
    const dotPath = opts.graph ? join(work, own.dot) : undefined;
    const dumpPath = opts.dump && !opts.graph ? join(work, own.dump) : undefined;
    const args = tlcArgs(tools.jar, cfgName, basename(opts.spec), {
      ...(dumpPath !== undefined && { dumpPath }),
      ...(dotPath !== undefined && { dotPath }),
      ...(opts.checkDeadlock !== undefined && { checkDeadlock: opts.checkDeadlock }),
      ...(opts.workers !== undefined && { workers: opts.workers }),
      ...(opts.libDirs && { libDirs: opts.libDirs.map((d) => resolve(d)) }),
      ...(opts.extraArgs && { extraArgs: opts.extraArgs }),
      ...(((tools.classpath?.length ?? 0) > 0 || (opts.classpath?.length ?? 0) > 0) && { classpath: [...(tools.classpath ?? []), ...(opts.classpath ?? []).map((p) => resolve(p))] }),
      ...(opts.javaOptions && opts.javaOptions.length > 0 && { javaOptions: opts.javaOptions }),
      metadir: join(work, own.meta),
    });
    const timeoutMs = opts.timeoutMs ?? 600_000;
    const started = Date.now();
    const { raw, exitCode, timedOut, spawnError, overflow } = await spawnCollect(tools.java, args, work, timeoutMs, opts.maxOutputBytes ?? MAX_OUTPUT_BYTES);
    const wallMs = Date.now() - started;
    if (spawnError) throw new TlcUnavailableError(`cannot start ${tools.java}: ${spawnError}`);
    if (timedOut) return { kind: 'timeout', wallMs, timeoutMs, raw };
    if (overflow) {
      const errors = [`TLC printed more than ${Math.round((opts.maxOutputBytes ?? MAX_OUTPUT_BYTES) / 2 ** 20)} MiB and was stopped (with -continue on an unbounded spec it never ends)`];
      return { kind: 'completed', exitCode, wallMs, raw: '', result: { outcome: 'crash', trace: [], sany: [], errors } };
    }
    // A JVM that dies before TLC speaks (bad jar, no memory) is a crash, not malformed output.
    if (splitToolOutputSafe(raw) === 0 && exitCode !== 0) {
      const tail = raw.trim().split('\n').slice(-5).join(' | ');
      return { kind: 'completed', exitCode, wallMs, raw, result: reconcileExit({ outcome: 'crash', trace: [], sany: [], errors: [`java exited with ${exitCode}: ${tail}`] }, exitCode) };
    }
    const result = reconcileExit(parseToolOutput(raw), exitCode, { continued: opts.extraArgs?.includes('-continue') === true });
    let dumpText: string | undefined;
    if (dumpPath) {
      // Older TLC releases append ".dump" to the given name.
      const p = [dumpPath, `${dumpPath}.dump`].find((x) => existsSync(x));
      if (p) dumpText = readFileSync(p, 'utf8');
    }
    const dotText = dotPath !== undefined && existsSync(dotPath) ? readFileSync(dotPath, 'utf8') : undefined;
    return { kind: 'completed', result, exitCode, wallMs, raw, ...(dumpText !== undefined && { dumpText }), ...(dotText !== undefined && { dotText }) };
  } finally {
    removeTempDir(work);
  }
}

/**
 * The spec's folder in the scratch directory: each .tla copied, every other entry linked (read in
 * place, never copied: a folder may be large), except names fencecheck uses itself.
 */
function stageSpecFolder(specDir: string, work: string, reserved: ReadonlySet<string>): void {
  for (const f of readdirSync(specDir)) {
    if (reserved.has(f)) continue;
    if (f.endsWith('.tla')) copyFileSync(join(specDir, f), join(work, f));
    else symlinkSync(join(specDir, f), join(work, f));
  }
}

function splitToolOutputSafe(raw: string): number {
  try {
    return splitToolOutput(raw).messages.length;
  } catch {
    return -1;
  }
}

/** More output than this is not a counterexample anyone reads (and would not fit in a string): TLC is stopped. */
const MAX_OUTPUT_BYTES = 256 * 2 ** 20;

function spawnCollect(cmd: string, args: string[], cwd: string, timeoutMs: number, maxBytes: number) {
  return new Promise<{ raw: string; exitCode: number | null; timedOut: boolean; overflow: boolean; spawnError?: string }>((resolvePromise) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let overflow = false;
    const collect = (c: Buffer) => {
      if (overflow) return;
      bytes += c.length;
      if (bytes > maxBytes) {
        overflow = true;
        chunks.length = 0;
        kill();
      } else chunks.push(c);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    // Kill exactly the JVM we started, by its pid, when the time is up or this process exits.
    const kill = () => {
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    // On exit, and on a signal that ends this process (which runs no 'exit' handler), whoever handles it.
    const unhook = onProcessEnd({ when: 'any-signal', release: kill });
    const done = (exitCode: number | null, spawnError?: string) => {
      clearTimeout(timer);
      unhook();
      resolvePromise({ raw: Buffer.concat(chunks).toString('utf8'), exitCode, timedOut, overflow, ...(spawnError !== undefined && { spawnError }) });
    };
    child.on('error', (err) => done(null, err.message));
    child.on('close', (code) => done(code));
  });
}
