/**
 * `fencecheck merge`: the verify.json of the n parts of a `verify --shard i/n` matrix combined into
 * the one verify document an unsharded run gives — one verdict, one mutation matrix, one set of
 * reports. Every part i of n must be there exactly once (a missing or a duplicated part is a
 * MergeError: bad input, exit 3, never a pass), of one commit and one split. A stage run as parts in
 * every shard (`options.sharded`) is merged from its n reports: the conformance tour by its figures
 * and digests (src/seam/tour/merge.ts: the same counts and digest as one run), a mutant layer by its
 * results (each mutant in exactly one part), any other by its counts (summed; a `model…` total is
 * the same in every part and kept; a `…Visited` figure is the largest part's, a lower bound of the
 * union). A stage run whole in one shard is taken as it is; in two shards, it is a MergeError.
 */
import { statusExitCode } from '../core/exit-codes.js';
import { loadManifest, type MutantManifest } from '../core/manifest.js';
import { stageReport, worstStatus, type StageReport, type StageStatus } from '../core/stage-report.js';
import type { MutantResult } from '../core/verdict.js';
import { mutationMatrix } from '../report/matrix.js';
import { tlcSummary } from '../report/tlc-summary.js';
import { VERIFY_SCHEMA, type StageOutcome, type VerifyReport } from '../report/verify-doc.js';
import { allKilled, mutantScore } from '../mutants/report-table.js';
import { mergeTourReports, TourMergeError } from '../seam/tour/merge.js';
import { interpretStage } from './interpret.js';
import { FALLBACK_OF_LAYER, STAGE_OF_LAYER, STAGES, type Stage } from './stages.js';
import { verifyVerdict } from './verdict.js';

export class MergeError extends Error {
  override readonly name = 'MergeError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Part {
  readonly where: string;
  readonly doc: VerifyReport;
  readonly index: number;
  readonly count: number;
}

function part(raw: unknown, where: string): Part {
  if (!isObj(raw) || raw.schema !== VERIFY_SCHEMA) throw new MergeError(`${where}: not a verify report (schema ${VERIFY_SCHEMA})`);
  const doc = raw as unknown as VerifyReport;
  if (!isObj(doc.options) || !Array.isArray(doc.stages)) throw new MergeError(`${where}: a verify report without options or stages`);
  const s = doc.options.shard;
  if (!isObj(s) || !Number.isInteger(s.index) || !Number.isInteger(s.count) || s.index < 1 || s.index > s.count)
    throw new MergeError(`${where}: not a shard's report (run it with verify --shard i/n)`);
  return { where, doc, index: s.index, count: s.count };
}

export interface MergeInput {
  /** Each report's text and a name for messages (its path). */
  readonly reports: readonly { readonly where: string; readonly text: string }[];
  readonly manifest?: MutantManifest;
  readonly catalogue?: readonly Stage[];
  /** The merged run's output folder, as the document records it. */
  readonly out: string;
}

export function mergeVerifyReports(input: MergeInput): VerifyReport {
  if (input.reports.length === 0) throw new MergeError('no reports to merge');
  const parts = input.reports.map(({ where, text }) => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new MergeError(`${where}: not JSON: ${(err as Error).message}`);
    }
    return part(raw, where);
  });
  const count = parts[0]!.count;
  const byIndex = new Map<number, Part>();
  for (const p of parts) {
    if (p.count !== count) throw new MergeError(`${p.where} is shard ${p.index}/${p.count}, ${parts[0]!.where} is shard ${parts[0]!.index}/${count}: parts of different splits`);
    const twin = byIndex.get(p.index);
    if (twin) throw new MergeError(`shard ${p.index}/${count} given twice (${twin.where} and ${p.where})`);
    byIndex.set(p.index, p);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new MergeError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing (${parts.length} of ${count} reports given): a merge of some parts is no verdict`,
    );
  const ordered = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const commits = new Set(ordered.map((p) => p.doc.git?.commit ?? 'unknown'));
  if (commits.size > 1) throw new MergeError(`the parts are of different commits (${[...commits].join(', ')}): one matrix run is one commit`);

  const catalogue = input.catalogue ?? STAGES;
  const sharded = new Set(ordered.flatMap((p) => p.doc.options.sharded ?? []));
  const outcomes: StageOutcome[] = [];
  const names = new Set(ordered.flatMap((p) => p.doc.stages.map((s) => s.stage)));
  const known = [...catalogue.map((s) => s.name).filter((n) => names.has(n)), ...[...names].filter((n) => !catalogue.some((s) => s.name === n))];
  for (const name of known) {
    const holders = ordered.filter((p) => p.doc.stages.some((s) => s.stage === name));
    const of = (p: Part) => p.doc.stages.find((s) => s.stage === name)!;
    if (sharded.has(name)) {
      const lacking = ordered.filter((p) => !holders.includes(p) || !(p.doc.options.sharded ?? []).includes(name));
      if (lacking.length > 0)
        throw new MergeError(
          `stage ${name} ran as parts, but shard${lacking.length > 1 ? 's' : ''} ${lacking.map((p) => `${p.index}/${count}`).join(', ')} ${lacking.length > 1 ? 'have' : 'has'} no part of it`,
        );
      outcomes.push(mergedOutcome(name, holders.map(of)));
    } else {
      if (holders.length > 1) throw new MergeError(`stage ${name} ran whole in more than one shard (${holders.map((p) => `${p.index}/${count}`).join(', ')}): a duplicated part`);
      outcomes.push(of(holders[0]!));
    }
  }
  // Every stage one part says another part runs must be in the merge.
  for (const p of ordered)
    for (const s of p.doc.options.otherShards ?? []) if (!names.has(s)) throw new MergeError(`stage ${s} was to run in another shard than ${p.index}/${count}, and no part has it`);

  const manifest = input.manifest ?? loadManifest();
  const matrix = mutationMatrix(manifest, outcomes, STAGE_OF_LAYER, FALLBACK_OF_LAYER);
  const first = ordered[0]!.doc;
  const startedAt = ordered.map((p) => p.doc.startedAt).sort()[0]!;
  const finishedAt = ordered
    .map((p) => p.doc.finishedAt)
    .sort()
    .at(-1)!;
  const traces = [...new Set(ordered.flatMap((p) => p.doc.traces))].sort();
  const served = Object.assign({}, ...ordered.map((p) => p.doc.options.served ?? {})) as Record<string, string>;
  return {
    schema: VERIFY_SCHEMA,
    tool: first.tool,
    startedAt,
    finishedAt,
    // The matrix's wall time: its longest part.
    durationMs: Math.max(...ordered.map((p) => p.doc.durationMs)),
    host: first.host,
    git: first.git,
    options: {
      ...first.options,
      stages: outcomes.map((o) => o.stage),
      notSelected: catalogue.map((s) => s.name).filter((n) => !names.has(n)),
      allowNotRun: [...new Set(ordered.flatMap((p) => p.doc.options.allowNotRun))],
      out: input.out,
      shard: undefined,
      sharded: undefined,
      otherShards: undefined,
      ...(Object.keys(served).length > 0 ? { served } : {}),
      mergedShards: count,
    },
    verdict: verifyVerdict(outcomes, matrix),
    stages: outcomes,
    tlc: tlcSummary(outcomes),
    mutationMatrix: matrix,
    traces,
  };
}

/** One stage's n parts as one outcome, its report merged, judged as verify judges a stage. */
function mergedOutcome(stage: string, parts: readonly StageOutcome[]): StageOutcome {
  const reports = parts.map((o) => o.report);
  let report: StageReport | null = null;
  if (reports.every((r): r is StageReport => r !== null)) report = mergeStageReports(stage, reports);
  const worst = parts.find((o) => o.status === 'error') ?? parts.find((o) => o.report === null);
  const startedAt = parts.map((o) => o.startedAt).sort()[0]!;
  const durationMs = Math.max(...parts.map((o) => o.durationMs));
  const leftoverProcesses = parts.reduce((a, o) => a + o.leftoverProcesses, 0);
  if (worst || !report) {
    // A part that did not complete: the stage did not (its reason, with the part's place).
    const bad = worst ?? parts[0]!;
    const at = parts.indexOf(bad) + 1;
    return { ...bad, stage, startedAt, durationMs, leftoverProcesses, reason: `part ${at}/${parts.length}: ${bad.reason ?? bad.summary}`, summary: `part ${at}/${parts.length}: ${bad.summary}` };
  }
  const outcome = interpretStage({
    stage,
    command: parts[0]!.command.filter((a, i, all) => a !== '--shard' && all[i - 1] !== '--shard'),
    child: { exitCode: statusExitCode(report.status), signal: null, stdout: JSON.stringify(report), stderr: '', startedAt, durationMs, timedOut: false, leftoverProcesses },
    allowedNotRun: parts.some((o) => o.allowedNotRun),
    timeoutMs: 0,
  });
  return outcome;
}

/** The parts' reports as one (see the module comment). */
export function mergeStageReports(stage: string, reports: readonly StageReport[]): StageReport {
  const details = reports.map((r) => (isObj(r.details) ? r.details : {}));
  if (details.every((d) => isObj(d.checks) && (d.checks as Obj).kind === 'conformance') || details.some((d) => isObj(d.shard) && isObj(d.whole))) {
    try {
      return mergeTourReports(reports);
    } catch (err) {
      if (err instanceof TourMergeError) throw new MergeError(`stage ${stage}: ${err.message}`);
      throw err;
    }
  }
  if (reports.every((r) => Array.isArray(r.mutants))) return mergeMutantReports(stage, reports);
  return mergeCountReports(stage, reports);
}

function mergeMutantReports(stage: string, reports: readonly StageReport[]): StageReport {
  const results: MutantResult[] = [];
  const seen = new Set<string>();
  for (const r of reports) {
    for (const m of r.mutants ?? []) {
      const key = `${m.id} ${m.layer}`;
      if (seen.has(key)) throw new MergeError(`stage ${stage}: mutant ${m.id} [${m.layer}] is in two parts (a duplicated part, or parts of different splits)`);
      seen.add(key);
      results.push(m);
    }
  }
  const ran = results.filter((r) => r.verdict !== 'not-run');
  const killed = results.filter((r) => r.verdict === 'killed').length;
  const notRun = results.filter((r) => r.verdict === 'not-run');
  const failedPart = reports.some((r) => r.status === 'failed');
  const status: StageStatus =
    failedPart || (ran.length > 0 && !allKilled(ran)) ? 'failed' : notRun.length > 0 || ran.length === 0 || reports.some((r) => r.status === 'not-run') ? 'not-run' : 'passed';
  const notKilled = ran.filter((r) => r.verdict !== 'killed');
  const summary = `${killed}/${results.length} mutants killed${notKilled.length > 0 ? `; not killed: ${notKilled.map((r) => `${r.id} ${r.verdict}`).join(', ')}` : ''}${notRun.length > 0 ? `; not run: ${notRun.map((r) => r.id).join(', ')}` : ''} (${reports.length} parts merged)`;
  const score = mutantScore(results);
  const f = score.overall;
  const reason = status === 'passed' ? undefined : status === 'not-run' ? (notRun[0]?.reason ?? reports.find((r) => r.status === 'not-run')?.reason ?? 'no mutant ran') : summary;
  const traces = [...new Set(reports.flatMap((r) => r.traces ?? []))];
  return stageReport({
    stage: reports[0]!.stage,
    status,
    ...(reason !== undefined ? { reason } : {}),
    startedAt: reports.map((r) => r.startedAt).sort()[0]!,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    summary,
    counts: {
      mutants: results.length,
      killed,
      notKilled: notKilled.length,
      notRun: notRun.length,
      ...(f.percent !== null ? { scorePercent: f.percent } : {}),
      scoreKilled: f.killed,
      scoreCounted: f.total - f.equivalent,
      equivalent: f.equivalent,
    },
    mutants: results,
    details: { mutationScore: score },
    ...(traces.length > 0 ? { traces } : {}),
  });
}

function mergeCountReports(_stage: string, reports: readonly StageReport[]): StageReport {
  const keys = [...new Set(reports.flatMap((r) => Object.keys(r.counts ?? {})))];
  const counts: Record<string, number> = {};
  for (const k of keys) {
    const vs = reports.map((r) => r.counts?.[k] ?? 0);
    counts[k] = /^model[A-Z]/.test(k) ? Math.max(...vs) : /Visited$/.test(k) ? Math.max(...vs) : vs.reduce((a, b) => a + b, 0);
  }
  const status: StageStatus = worstStatus(reports.map((r) => r.status));
  const bad = reports.findIndex((r) => r.status === status && status !== 'passed');
  const reason = bad >= 0 ? `part ${bad + 1}/${reports.length}: ${reports[bad]!.reason ?? reports[bad]!.summary}` : undefined;
  const sections = reports.flatMap((r, i) => {
    const d = r.details as { sections?: readonly { id: string; title: string }[] } | undefined;
    return (d?.sections ?? []).map((s) => ({ ...s, id: `${s.id}-part${i + 1}`, title: `${s.title} (part ${i + 1}/${reports.length})` }));
  });
  const traces = [...new Set(reports.flatMap((r) => r.traces ?? []))];
  return stageReport({
    stage: reports[0]!.stage,
    status,
    ...(reason !== undefined ? { reason } : {}),
    startedAt: reports.map((r) => r.startedAt).sort()[0]!,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    summary: `${reports.length} parts merged: ${reports.map((r, i) => `part ${i + 1}: ${r.summary}`).join('; ')}`,
    counts,
    details: { parts: reports.map((r) => ({ status: r.status, summary: r.summary, details: r.details })), sections },
    ...(traces.length > 0 ? { traces } : {}),
  });
}
