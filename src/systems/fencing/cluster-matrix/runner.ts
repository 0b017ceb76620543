/**
 * Runs the matrix rows: each topology spec the rows need is started once (startTopology), its rows run in
 * the given order with a flush between them, then it is stopped. A row that kills nodes (the
 * drills) must come last on its topology: the runner does not repair one.
 */
import { describeSpec, startTopology, ValkeyUnavailableError, type Topology } from '../../../valkey/index.js';
import type { ProviderChoice } from '../../../valkey/start.js';
import { asInfrastructureFault, describeFault } from '../../../valkey/fault.js';
import { useAbsoluteValkeyBinary } from './drills/restart.js';
import { notRun, failed, type MatrixRow, type RowContext, type RowOutcome, type RowResult } from './types.js';

export interface RunOptions {
  readonly provider?: ProviderChoice;
  readonly repeat?: number;
  /** Variant per row name; default each row's variants[0] (the design that must pass). */
  readonly variants?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
  readonly progress?: (row: string) => RowContext['progress'];
  /** Called as each row ends (the CLI prints it). */
  readonly onRow?: (r: RowResult) => void;
}

function skipped(row: MatrixRow, topology: string, reason: string): RowResult {
  return { name: row.name, surface: row.surface, variant: '', topology, durationMs: 0, errors: notRun(reason), silentlyWrong: notRun(reason), figures: {}, notes: [] };
}

/** A thrown error: an infrastructure fault is not-run (nothing learnt); anything else is an error the row met. */
function fromThrown(err: unknown): RowOutcome {
  const fault = err instanceof ValkeyUnavailableError ? err.message : asInfrastructureFault(err);
  if (fault !== null) {
    const why = typeof fault === 'string' ? fault : describeFault(fault.fault);
    return { errors: notRun(why), silentlyWrong: notRun(why), figures: {}, notes: [] };
  }
  const msg = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  return { errors: failed(`the row threw: ${msg}`), silentlyWrong: notRun('the row did not complete'), figures: {}, notes: [] };
}

export async function runMatrix(rows: readonly MatrixRow[], opts: RunOptions = {}): Promise<RowResult[]> {
  const log = opts.log ?? (() => {});
  // The replica drill restarts a node in place, which needs the server started by an absolute path.
  useAbsoluteValkeyBinary();
  const groups = new Map<string, MatrixRow[]>();
  for (const r of rows) {
    const k = describeSpec(r.topology);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const results: RowResult[] = [];
  const emit = (r: RowResult) => {
    results.push(r);
    opts.onRow?.(r);
  };
  for (const [spec, group] of groups) {
    let topology: Topology;
    try {
      topology = await startTopology(group[0]!.topology, opts.provider ? { provider: opts.provider } : {});
    } catch (err) {
      if (!(err instanceof ValkeyUnavailableError)) throw err;
      for (const r of group) emit(skipped(r, spec, err.message));
      continue;
    }
    try {
      if (!topology.owned) {
        // Rows reshard, kill connections and nodes and set ACL users: only on nodes the harness started.
        for (const r of group) emit(skipped(r, spec, 'not run: needs an owned topology (the cluster client matrix reshards, kills connections and nodes)'));
        continue;
      }
      for (const [i, row] of group.entries()) {
        const variant = opts.variants?.[row.name] ?? row.variants[0]!;
        const t0 = performance.now();
        log(`[cluster-matrix] ${row.name} (${variant}) on ${spec}…`);
        let outcome: RowOutcome;
        try {
          if (i > 0) await topology.flush();
          const progress = opts.progress?.(row.name);
          const ctx: RowContext = { topology, repeat: opts.repeat ?? 1, log, ...(progress ? { progress } : {}) };
          outcome = await row.run(ctx, variant);
        } catch (err) {
          outcome = fromThrown(err);
        }
        emit({ name: row.name, surface: row.surface, variant, topology: spec, provider: topology.provider, durationMs: Math.round(performance.now() - t0), ...outcome });
      }
    } finally {
      await topology.stop();
    }
  }
  return results;
}
