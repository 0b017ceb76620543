import { basename } from 'node:path';
import type { Trace } from '../core/trace-format.js';
import type { TlcTools } from './locate.js';
import { runTlc, type TlcRun } from './run.js';
import { toTlaTrace } from './to-itf.js';
import type { TlcResult } from './tool-output.js';

export interface SpecCheckOptions {
  readonly spec: string;
  readonly config: string;
  readonly libDirs?: readonly string[];
  /** Jars (or folders) for Java's classpath after the TLC jar. */
  readonly classpath?: readonly string[];
  /** JVM options, already checked (javaOptionProblem). */
  readonly javaOptions?: readonly string[];
  /** TLC options after `--`, already checked by resolvePassThrough. */
  readonly extraArgs?: readonly string[];
  readonly tools: TlcTools;
  readonly timeoutMs?: number;
  readonly workers?: number;
}

export interface SpecCheck {
  readonly run: TlcRun;
  /** The counterexample as a `system: "tla"` trace (`trace import` reads one of a system's spec as that system's). */
  readonly trace?: Trace;
  readonly traceProblem?: string;
}

/**
 * Any spec with any config: TLC's own defaults (deadlock checked; `-- -deadlock` turns it off), the
 * library directories and pass-through options added, nothing dumped. The fencing runs (checkBase,
 * checkMutant) keep theirs.
 */
export async function checkSpec(o: SpecCheckOptions): Promise<SpecCheck> {
  const run = await runTlc({
    spec: o.spec,
    config: o.config,
    tools: o.tools,
    checkDeadlock: true,
    ...(o.libDirs && { libDirs: o.libDirs }),
    ...(o.classpath && o.classpath.length > 0 && { classpath: o.classpath }),
    ...(o.javaOptions && o.javaOptions.length > 0 && { javaOptions: o.javaOptions }),
    ...(o.extraArgs && { extraArgs: o.extraArgs }),
    ...(o.timeoutMs !== undefined && { timeoutMs: o.timeoutMs }),
    ...(o.workers !== undefined && { workers: o.workers }),
  });
  if (run.kind !== 'completed' || run.result.trace.length === 0) return { run };
  return { run, ...traceOf(run.result, o) };
}

function traceOf(r: TlcResult, o: SpecCheckOptions): { trace?: Trace; traceProblem?: string } {
  const trace = toTlaTrace(r, basename(o.spec));
  const bad = r.unreadable?.[0];
  return { ...(trace && { trace }), ...(bad && { traceProblem: `step ${bad.step}, variable ${bad.variable}: ${bad.message}` }) };
}
