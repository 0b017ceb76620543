/**
 * The shards of one conformance tour (`conform --shard i/n --json`, one StageReport each) merged
 * into the report one unsharded run gives: the same counts, rows and digest (shards partition the
 * model's states, so every figure and the digest add up; digest.ts). Pure: reports in, one report
 * out. A report that is no tour report, shards of different tours (system, bounds, mode, model), a
 * missing or a duplicated shard is a TourMergeError, never a pass. A shard that did not run makes
 * the merged report not-run; a failed shard makes it failed (the lowest shard's failure is named).
 */
import { stageReport, type StageReport, type StageStatus } from '../../core/stage-report.js';
import { addDigests } from './digest.js';
import type { ModelRow, ModelTotals } from './model-graph.js';
import type { ActionCoverage } from './result.js';
import { MAX_SHARDS, shardLabel, WHOLE, type Shard } from './shard.js';
import { tourCounts, type TourReportDetails, type TourReportFailure } from './stage.js';
import { conformReportDetails, type ConformFigures } from './sections.js';

export class TourMergeError extends Error {
  override readonly name = 'TourMergeError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Readers that name the report and the field that is wrong. */
function reader(where: string) {
  const bad = (field: string, want: string): never => {
    throw new TourMergeError(`${where}: ${field} is not ${want}`);
  };
  const obj = (o: Obj, f: string): Obj => (isObj(o[f]) ? (o[f] as Obj) : bad(f, 'an object'));
  const num = (o: Obj, f: string): number => (typeof o[f] === 'number' && Number.isFinite(o[f]) && (o[f] as number) >= 0 ? (o[f] as number) : bad(f, 'a number ≥ 0'));
  const str = (o: Obj, f: string): string => (typeof o[f] === 'string' ? (o[f] as string) : bad(f, 'a string'));
  const digestOrNull = (o: Obj, f: string): string | null => (o[f] === null ? null : /^[0-9a-f]{64}$/.test(String(o[f])) ? (o[f] as string) : bad(f, 'a digest (64 hex digits) or null'));
  return { bad, obj, num, str, digestOrNull };
}

function shardOf(d: Obj, where: string): Shard {
  const r = reader(where);
  const s = isObj(d.shard) ? d.shard : r.bad('details.shard', 'an object');
  const index = r.num(s, 'index');
  const count = r.num(s, 'count');
  if (!Number.isInteger(index) || !Number.isInteger(count) || index < 1 || index > count || count > MAX_SHARDS) r.bad('details.shard', `i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}`);
  return { index, count };
}

const TOTALS = ['states', 'transitions', 'refused', 'unchanged', 'attempts'] as const;
const SUMMED = ['states', 'attempts', 'transitions', 'refused', 'unchanged', 'errors', 'stateChecks', 'instances', 'executed'] as const;
const ROW = ['modelTransitions', 'transitions', 'modelRefused', 'refused'] as const;
const MODEL_ROW = ['transitions', 'refused', 'unchanged'] as const;

interface Parsed {
  readonly where: string;
  readonly report: StageReport<unknown>;
  readonly status: StageStatus;
  readonly shard: Shard;
  readonly details: Obj;
}

function parse(raw: unknown, i: number): Parsed {
  const where = `report ${i + 1}`;
  if (!isObj(raw) || raw.schema !== 'fencecheck.stage/1') throw new TourMergeError(`${where}: not a StageReport (schema fencecheck.stage/1)`);
  const r = reader(where);
  const status = r.str(raw, 'status');
  if (status !== 'passed' && status !== 'failed' && status !== 'not-run') r.bad('status', 'passed, failed or not-run');
  const details = r.obj(raw, 'details');
  return { where, report: raw as unknown as StageReport<unknown>, status: status as StageStatus, shard: shardOf(details, where), details };
}

/** The whole tour's identity, which every shard must share. */
function identity(p: Parsed): string {
  const r = reader(p.where);
  const d = p.details;
  const checks = r.obj(d, 'checks');
  if (checks.kind !== 'conformance') r.bad('details.checks', 'the conformance tour (only it is sharded)');
  const whole = r.obj(d, 'whole');
  const totals = r.obj(whole, 'totals');
  return JSON.stringify({
    stage: p.report.stage,
    system: r.str(d, 'system'),
    bounds: d.bounds ?? null,
    reach: r.str(d, 'reach'),
    whole: r.digestOrNull(whole, 'digest'),
    totals: TOTALS.map((k) => r.num(totals, k)),
  });
}

function sumRows<R extends Record<string, number>>(rows: readonly Obj[], fields: readonly (keyof R & string)[], where: readonly string[]): Record<string, R> {
  const out: Record<string, R> = {};
  rows.forEach((byRow, i) => {
    const r = reader(where[i]!);
    for (const [name, v] of Object.entries(byRow)) {
      if (!isObj(v)) r.bad(`row ${name}`, 'an object');
      const acc = (out[name] ??= Object.fromEntries(fields.map((f) => [f, 0])) as R);
      for (const f of fields) (acc as Record<string, number>)[f] = acc[f]! + r.num(v as Obj, f);
    }
  });
  return out;
}

export function mergeTourReports(reports: readonly unknown[]): StageReport<TourReportDetails | { readonly system: string; readonly shard: Shard; readonly shards: TourReportDetails['shards'] }> {
  if (reports.length === 0) throw new TourMergeError('no reports to merge');
  const parsed = reports.map(parse);
  const count = parsed[0]!.shard.count;
  const seen = new Map<number, Parsed>();
  for (const p of parsed) {
    if (p.shard.count !== count) throw new TourMergeError(`${p.where} is shard ${shardLabel(p.shard)}, ${parsed[0]!.where} is shard ${shardLabel(parsed[0]!.shard)}: shards of different splits`);
    const twin = seen.get(p.shard.index);
    if (twin) throw new TourMergeError(`shard ${shardLabel(p.shard)} appears twice (${twin.where} and ${p.where})`);
    seen.set(p.shard.index, p);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new TourMergeError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing (${parsed.length} of ${count} reports given)`);
  const ordered = [...parsed].sort((a, b) => a.shard.index - b.shard.index);
  const stages = new Set(ordered.map((p) => p.report.stage));
  if (stages.size > 1) throw new TourMergeError(`reports of different stages: ${[...stages].join(', ')}`);
  const stage = ordered[0]!.report.stage;
  const startedAt = ordered.map((p) => p.report.startedAt).sort()[0]!;
  const durationMs = Math.max(...ordered.map((p) => p.report.durationMs));
  const shards = ordered.map((p) => ({ index: p.shard.index, status: p.status, durationMs: p.report.durationMs }));
  const traces = ordered.flatMap((p) => p.report.traces ?? []);
  const system = reader(ordered[0]!.where).str(ordered[0]!.details, 'system');

  const notRun = ordered.filter((p) => p.status === 'not-run');
  if (notRun.length > 0) {
    const reason = notRun.map((p) => `shard ${shardLabel(p.shard)}: ${p.report.reason ?? 'not run'}`).join('; ');
    return stageReport({ stage, status: 'not-run', reason, startedAt, durationMs, summary: `${stage} not run: ${reason}`, details: { system, shard: WHOLE, shards } });
  }

  const ids = ordered.map(identity);
  const other = ids.findIndex((id) => id !== ids[0]);
  if (other >= 0)
    throw new TourMergeError(`${ordered[other]!.where} (shard ${shardLabel(ordered[other]!.shard)}) is a shard of another tour than ${ordered[0]!.where}: system, bounds, reach or model differ`);

  const first = ordered[0]!.details;
  const where = ordered.map((p) => p.where);
  const ds = ordered.map((p) => p.details);
  const sum = (pick: (d: Obj, r: ReturnType<typeof reader>) => number) => ds.reduce((acc, d, i) => acc + pick(d, reader(where[i]!)), 0);
  const summed = Object.fromEntries(SUMMED.map((k) => [k, sum((d, r) => r.num(d, k))])) as Record<(typeof SUMMED)[number], number>;
  const models = ds.map((d, i) => reader(where[i]!).obj(d, 'model'));
  const model: ModelTotals = {
    ...(Object.fromEntries(TOTALS.map((k) => [k, models.reduce((acc, m, i) => acc + reader(where[i]!).num(m, k), 0)])) as Record<(typeof TOTALS)[number], number>),
    byAction: sumRows<ModelRow & Record<string, number>>(
      models.map((m, i) => reader(where[i]!).obj(m, 'byAction')),
      MODEL_ROW,
      where,
    ),
  };
  const whole = first.whole as TourReportDetails['whole'];
  for (const k of TOTALS) {
    if (model[k] !== whole.totals[k])
      throw new TourMergeError(`the shards' model parts do not add up to the whole model: ${k} ${model[k]}, the whole has ${whole.totals[k]} (were the shards cut by different partitions?)`);
  }
  const modelDigest = addDigests(ds.map((d, i) => reader(where[i]!).digestOrNull(d, 'modelDigest') ?? reader(where[i]!).bad('modelDigest', 'a digest')));
  if (modelDigest !== whole.digest) throw new TourMergeError("the shards' model digests do not add up to the whole model's (were the shards cut by different partitions?)");
  const covered = {
    states: sum((d, r) => r.num(r.obj(d, 'covered'), 'states')),
    transitions: sum((d, r) => r.num(r.obj(d, 'covered'), 'transitions')),
    refused: sum((d, r) => r.num(r.obj(d, 'covered'), 'refused')),
  };
  const byAction = sumRows<ActionCoverage & Record<string, number>>(
    ds.map((d, i) => reader(where[i]!).obj(d, 'byAction')),
    ROW,
    where,
  );
  const digests = ds.map((d, i) => reader(where[i]!).digestOrNull(d, 'digest'));
  const complete = digests.every((x) => x !== null);
  const digest = complete ? addDigests(digests as string[]) : null;
  // The observed digests add up like the graph's (a shard's report from before they existed has none: null).
  const observedParts = ds.map((d, i) => (d.observed === undefined ? null : reader(where[i]!).digestOrNull(d, 'observed')));
  const observed = observedParts.every((x) => x !== null) ? addDigests(observedParts as string[]) : null;
  const failedAt = ordered.find((p) => isObj(p.details.failure));
  const failure: TourReportFailure | undefined = failedAt ? { ...(failedAt.details.failure as unknown as TourReportFailure), shard: failedAt.shard } : undefined;
  const equalToModel = digest === null ? null : digest === whole.digest;
  const details: TourReportDetails = {
    system,
    bounds: first.bounds,
    boundsLabel: typeof first.boundsLabel === 'string' ? first.boundsLabel : '',
    checks: { kind: 'conformance' },
    reach: first.reach as TourReportDetails['reach'],
    shard: WHOLE,
    ...summed,
    model,
    whole,
    covered,
    byAction,
    equalToModel,
    equalToBaseline: null,
    digest,
    observed,
    modelDigest,
    depth: Math.max(...ds.map((d, i) => reader(where[i]!).num(d, 'depth'))),
    durationMs: Math.max(...ds.map((d, i) => reader(where[i]!).num(d, 'durationMs'))),
    ...(failure ? { failure } : {}),
    shards,
  };
  const failed = ordered.some((p) => p.status === 'failed') || failure !== undefined || equalToModel !== true;
  const label = `${details.boundsLabel}, conformance, ${count} shards merged`;
  const summary = failure
    ? `${label}: ${failure.check} in shard ${shardLabel(failure.shard!)} after ${Math.max(0, failure.path - 1)} steps${failure.attempt ? ` at ${failure.attempt}` : ''}`
    : equalToModel
      ? `${label}: the real graph is the model's (${covered.states} states, ${covered.transitions} transitions, ${covered.refused} refused attempts)`
      : `${label}: no check failed; the real graph differs from the model's (${details.states} states)`;
  const reason = failure ? `${failure.check}: ${failure.message} (shard ${shardLabel(failure.shard!)})` : 'the real graph differs from the model';
  // What the verify reports show (the Conformance section and suite), from the merged figures as a whole run's.
  const figures: ConformFigures = {
    system,
    bounds: details.boundsLabel,
    checks: details.checks,
    states: details.states,
    attempts: details.attempts,
    depth: details.depth,
    durationMs: details.durationMs,
    model: { states: model.states, transitions: model.transitions, refused: model.refused },
    covered,
    byAction,
    equalToModel,
    failure: failure
      ? {
          check: failure.check,
          message: failure.message,
          ...(failure.attempt !== undefined ? { attempt: failure.attempt } : {}),
          ...(failure.real !== undefined ? { real: failure.real } : {}),
          ...(failure.predicted !== undefined ? { predicted: failure.predicted } : {}),
          steps: Math.max(0, failure.path - 1),
        }
      : null,
  };
  const tracePath = failedAt?.report.traces?.[0];
  const replay = typeof failedAt?.details.replay === 'string' ? failedAt.details.replay : undefined;
  const shown = conformReportDetails(figures, {
    passed: !failed,
    summary,
    ...(failed ? { reason } : {}),
    ...(tracePath !== undefined ? { tracePath } : {}),
    ...(replay !== undefined ? { replay } : {}),
  });
  return stageReport({
    stage,
    status: failed ? 'failed' : 'passed',
    ...(failed ? { reason } : {}),
    startedAt,
    durationMs,
    summary,
    counts: tourCounts(details),
    ...(traces.length > 0 ? { traces } : {}),
    details: { ...details, ...(replay !== undefined ? { replay } : {}), ...shown },
  });
}
