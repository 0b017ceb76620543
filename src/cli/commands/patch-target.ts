/**
 * The system a user's own patch file is of (`conform --patch FILE`, `mutants --patch FILE`): the one
 * `--system` names, else the one with a tour whose patch type the file default-exports. Bad input
 * (exit 3, one line) is a PatchTargetError; a choice the user must make is a UsageError.
 */
import { UsageError } from '../../core/args.js';
import type { TracePatch } from '../../core/trace-format.js';
import { loadPatchExport, moduleShape as shape, PatchFileError, patchFileRecord } from '../../seam/patch-file.js';
import type { PatchChecks } from '../../seam/patch-checks.js';
import type { SystemTour } from '../../seam/tour/entry.js';
import { systemEntry, TOUR_NAMES } from '../../registry/systems.js';

export class PatchTargetError extends Error {
  override readonly name = 'PatchTargetError';
}

export interface PatchTarget {
  readonly system: string;
  /** Its tour, when it has one (every system `--patch` can find by itself has). */
  readonly tour?: SystemTour;
  /** Without a tour: its ordinary impl checks, when they judge a patch (src/seam/patch-checks.ts). */
  readonly checks?: PatchChecks;
  readonly record: TracePatch;
}

/**
 * `file` hashed, loaded and matched to a system. `systems`: the --system values (at most one);
 * `needTour`: only systems with a tour qualify (conform).
 */
export async function patchTarget(file: string, systems: readonly string[] | undefined, needTour: boolean): Promise<PatchTarget> {
  if (systems !== undefined && systems.length !== 1) throw new UsageError(`--patch runs one system's code: give at most one --system (got ${systems.join(', ')})`);
  let record: TracePatch;
  try {
    record = patchFileRecord(file);
  } catch (err) {
    if (err instanceof PatchFileError) throw new PatchTargetError(err.message);
    throw err;
  }
  let loaded: unknown;
  try {
    loaded = await loadPatchExport(record.path);
  } catch (err) {
    if (err instanceof PatchFileError) throw new PatchTargetError(err.message);
    throw err;
  }
  const named = systems?.[0];
  if (named !== undefined) {
    const entry = systemEntry(named);
    if (!entry) throw new UsageError(`--system: unknown system '${named}'`);
    if (needTour && !entry.tour) throw new UsageError(`--system: ${named} has no tour (systems with one: ${TOUR_NAMES.join(', ')})`);
    const tour = entry.tour ? await entry.tour() : undefined;
    if (needTour && !tour?.isPatch) throw new UsageError(`--system: ${named}'s tour takes no --patch`);
    if (tour?.isPatch && !tour.isPatch(loaded)) throw new PatchTargetError(`${file} is no patch of ${named}: it default-exports ${shape(loaded)}, not ${tour.patchType ?? `a ${named} patch`}`);
    const checks = !tour && entry.patchChecks ? await entry.patchChecks() : undefined;
    if (checks && !checks.isPatch(loaded)) throw new PatchTargetError(`${file} is no patch of ${named}: it default-exports ${shape(loaded)}, not ${checks.patchType}`);
    return { system: named, ...(tour ? { tour } : {}), ...(checks ? { checks } : {}), record };
  }
  const tours = (await Promise.all(TOUR_NAMES.map(async (name) => ({ name, tour: await systemEntry(name)!.tour!() })))).filter((t) => t.tour.isPatch !== undefined);
  const fits = tours.filter((t) => t.tour.isPatch!(loaded));
  if (fits.length === 0) {
    const wanted = tours.map((t) => `${t.name}: ${t.tour.patchType ?? 'its patch type'}`).join('; ');
    throw new PatchTargetError(`${file} default-exports ${shape(loaded)}, no patch of a system with a tour (${wanted})${needTour ? '' : '; for another system give --system'}`);
  }
  if (fits.length > 1) throw new UsageError(`${file} is a patch of ${fits.map((t) => t.name).join(' and ')}: give --system`);
  return { system: fits[0]!.name, tour: fits[0]!.tour, record };
}
