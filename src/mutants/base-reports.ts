/**
 * The unpatched runs' own reports (LayerRunOptions.onBaseReport), kept per stage: `mutants --layer
 * impl --conform-report FILE` writes the conform stage's — the impl layer's unpatched tour is that
 * stage's tour — so verify shows it as the conform stage instead of running the tour again. One
 * system's report as it is; several systems' combined as `fencecheck conform` combines them.
 */
import { writeFileSync } from 'node:fs';
import type { StageReport } from '../core/stage-report.js';
import { combinedTourReport, tourNotRunReport } from '../seam/tour/stage.js';
import { WHOLE } from '../seam/tour/shard.js';

export class BaseReports {
  private readonly parts = new Map<string, { system: string; report: StageReport }[]>();
  private readonly startedAt = new Date();

  readonly add = (stage: string, system: string, report: StageReport): void => {
    const list = this.parts.get(stage) ?? [];
    this.parts.set(stage, [...list.filter((p) => p.system !== system), { system, report }]);
  };

  /** The stage's report, or undefined when no unpatched run gave one. */
  report(stage: string): StageReport | undefined {
    const parts = this.parts.get(stage) ?? [];
    if (parts.length === 0) return undefined;
    return parts.length === 1 ? parts[0]!.report : combinedTourReport(stage, this.startedAt, parts);
  }

  /**
   * A system of `expected` that gave no report (its unpatched run did not happen or did not reach
   * the tour) is a not-run part: the stage's report never passes for a tour nobody ran.
   */
  complete(stage: string, expected: readonly string[]): void {
    for (const system of expected) {
      if ((this.parts.get(stage) ?? []).some((p) => p.system === system)) continue;
      this.add(stage, system, tourNotRunReport({ stage, startedAt: this.startedAt, reason: `the impl layer ran no unpatched tour of ${system}`, shard: WHOLE, system }));
    }
  }

  /** Writes the stage's report as JSON (a StageReport); nothing when there is none. */
  write(stage: string, file: string): boolean {
    const r = this.report(stage);
    if (r === undefined) return false;
    writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
    return true;
  }
}
