/**
 * What a system brings to fencecheck: one package per folder of real code (src/systems/<name>/),
 * listed once in src/registry/systems.ts. Everything generic — exploration, parity, TLC, evidence, the
 * mutant layers, the tour, verify, the CLI — reaches a system only through this.
 *
 * A package declares the systems it holds: each is a name the manifest's `system` field and every
 * `--system` option use, with its model (a TLA+ spec and its XState twin), if it has one. Fencing's
 * package holds two (the migration model `fencing` and the failover model `failover`: one real code,
 * two specs); the others hold one.
 */
import type { Command } from '../core/command.js';
import type { Stage } from '../core/stage.js';
import type { SystemImplRunner } from './impl-runner.js';
import type { TraceReplayer } from './replay.js';
import type { SystemTour } from './tour/entry.js';
import type { ModelSystem } from './system.js';
import type { TraceValidation } from './tracecheck/target.js';
import type { PatchChecks } from './patch-checks.js';

export type AnySystem = ModelSystem<unknown, unknown>;

export interface SystemEntry {
  /** The name in the manifest and in `--system`. */
  readonly name: string;
  /** One line: what it is, in a user's words. */
  readonly title: string;
  /** Its spec and twin on the seam (absent: the system has no TLA+ model yet). */
  readonly model?: () => Promise<AnySystem>;
  /** The names its manifest entries may give as expectedInvariant (its invariants, or its property checks). */
  expectedNames(): Promise<readonly string[]>;
  /** What its real code does without a log line, and its actions' parameter domains: for `fencecheck tracecheck` (src/seam/tracecheck/). */
  readonly traceValidation?: TraceValidation;
  /** How its traces replay on its real code (`fencecheck trace replay`); absent: they do not. */
  readonly replay?: () => Promise<TraceReplayer>;
  /** Its exhaustive tour on its real code (`fencecheck conform`, verify's conform stage); absent: it has none. */
  readonly tour?: () => Promise<SystemTour>;
  /** How a user's patch is judged on a system without a tour: its ordinary impl checks together (src/seam/patch-checks.ts). */
  readonly patchChecks?: () => Promise<PatchChecks>;
}

export interface SystemPackage {
  /** Its folder: src/systems/<name>/. */
  readonly name: string;
  readonly systems: readonly SystemEntry[];
  /** Runs the manifest's impl entries of its systems on its real code. */
  readonly impl?: () => Promise<SystemImplRunner>;
  /** Commands of its own (`fencecheck pause`), by name. */
  readonly commands?: Readonly<Record<string, () => Promise<{ command: Command }>>>;
  /**
   * Stages it adds to `fencecheck verify`, in the order they should start (longest first): stage
   * objects (src/core/stage.ts), each run by `fencecheck stage NAME` in a worker process.
   */
  readonly stages?: readonly Stage[];
  /** The folders of its Lua scripts, from the project root: what `fencecheck lua-check` checks by default. */
  readonly luaScripts?: readonly string[];
}
