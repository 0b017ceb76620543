/**
 * What changed between two verify runs (two verify documents): the verdict, each stage's status
 * and counts, each mutant × layer verdict, the mutation score, the hashes and TLC figures of each
 * model the run was pinned to, and the options that explain a difference (seed, runs). Times,
 * hosts and log paths differ on every run and are not compared. One change per line.
 */
import type { MatrixCell, MutationScore, StageOutcome, TlcSummary, VerifyReport } from './verify-doc.js';

export type ChangeKind = 'verdict' | 'stage' | 'count' | 'mutant' | 'score' | 'hash' | 'tlc' | 'option' | 'run';

export interface Change {
  readonly kind: ChangeKind;
  /** What changed: `verdict`, `stage props`, `mutant M3 impl`, `tlc PauseSnapshot configSha256`. */
  readonly subject: string;
  /** The value in the old and the new run; null when absent there. */
  readonly old: string | number | boolean | null;
  readonly new: string | number | boolean | null;
}

type Value = Change['old'];

const ARROW = '→';

/** `mutant M3 impl: killed → survived`; an absent side reads `(absent)`. */
export function changeLine(c: Change): string {
  const show = (v: Value) => (v === null ? '(absent)' : String(v));
  return `${c.subject}: ${show(c.old)} ${ARROW} ${show(c.new)}`;
}

export function diffReports(a: VerifyReport, b: VerifyReport): Change[] {
  const out: Change[] = [];
  const put = (kind: ChangeKind, subject: string, x: Value | undefined, y: Value | undefined) => {
    const o = x ?? null;
    const n = y ?? null;
    if (o !== n) out.push({ kind, subject, old: o, new: n });
  };

  put('verdict', 'verdict', a.verdict.status, b.verdict.status);
  put('verdict', 'verdict exit code', a.verdict.exitCode, b.verdict.exitCode);
  put('run', 'git commit', a.git?.commit, b.git?.commit);
  put('run', 'git dirty', a.git?.dirty, b.git?.dirty);
  put('run', 'fencecheck version', a.tool.version, b.tool.version);
  for (const key of ['runs', 'seed', 'topology'] as const) put('option', `option ${key}`, a.options[key], b.options[key]);
  put('option', 'option constants', a.options.constants?.join(', '), b.options.constants?.join(', '));

  diffStages(a.stages, b.stages, put);
  diffMatrix(a, b, put);
  diffScore(a.mutationMatrix.score, b.mutationMatrix.score, put);
  diffTlc(a.tlc, b.tlc, put);
  return out;
}

type Put = (kind: ChangeKind, subject: string, x: Value | undefined, y: Value | undefined) => void;

function diffStages(a: readonly StageOutcome[], b: readonly StageOutcome[], put: Put): void {
  const names = union(
    a.map((s) => s.stage),
    b.map((s) => s.stage),
  );
  for (const name of names) {
    const x = a.find((s) => s.stage === name);
    const y = b.find((s) => s.stage === name);
    const status = (s: StageOutcome | undefined) => (s ? (s.status === 'not-run' && s.allowedNotRun ? 'not-run (allowed)' : s.status) : undefined);
    put('stage', `stage ${name}`, status(x) ?? 'not selected', status(y) ?? 'not selected');
    if (!x || !y) continue;
    put('stage', `stage ${name} leftover processes`, x.leftoverProcesses, y.leftoverProcesses);
    for (const key of union(Object.keys(x.counts ?? {}), Object.keys(y.counts ?? {}))) put('count', `stage ${name} ${key}`, x.counts?.[key], y.counts?.[key]);
  }
}

function diffMatrix(a: VerifyReport, b: VerifyReport, put: Put): void {
  const layers = union(a.mutationMatrix.layers, b.mutationMatrix.layers);
  const ids = union(
    a.mutationMatrix.rows.map((r) => r.id),
    b.mutationMatrix.rows.map((r) => r.id),
  );
  for (const id of ids) {
    const x = a.mutationMatrix.rows.find((r) => r.id === id);
    const y = b.mutationMatrix.rows.find((r) => r.id === id);
    for (const layer of layers) {
      const cx: MatrixCell | undefined = (x?.cells as Readonly<Record<string, MatrixCell>> | undefined)?.[layer];
      const cy: MatrixCell | undefined = (y?.cells as Readonly<Record<string, MatrixCell>> | undefined)?.[layer];
      const verdict = (c: MatrixCell | undefined) => (c ? `${c.verdict}${c.from === 'evidence' ? ' (evidence)' : ''}` : undefined);
      put('mutant', `mutant ${id} ${layer}`, verdict(cx), verdict(cy));
      // Killed in both, but by another invariant: a real change in what the layer checks.
      if (cx && cy && cx.verdict === cy.verdict) put('mutant', `mutant ${id} ${layer} violated`, cx.violated, cy.violated);
    }
  }
}

function diffScore(a: MutationScore | undefined, b: MutationScore | undefined, put: Put): void {
  // Only stored scores are compared: recomputing one from a changed matrix would repeat the matrix's line.
  if (!a || !b) return;
  const pct = (f: MutationScore['overall'] | undefined) => (f ? (f.percent === null ? 'none' : `${f.percent.toFixed(1)} % (${f.killed}/${f.total - f.equivalent}, ${f.notRun} not run)`) : undefined);
  for (const layer of union(Object.keys(a.layers), Object.keys(b.layers)))
    put('score', `mutation score ${layer}`, pct((a.layers as Record<string, MutationScore['overall']>)[layer]), pct((b.layers as Record<string, MutationScore['overall']>)[layer]));
  put('score', 'mutation score overall', pct(a.overall), pct(b.overall));
}

/** Per model (by its module name): where the figures come from, the hashes, TLC's figures and flags. */
function diffTlc(a: readonly TlcSummary[], b: readonly TlcSummary[], put: Put): void {
  for (const model of union(
    a.map((t) => t.model),
    b.map((t) => t.model),
  )) {
    const x = a.find((t) => t.model === model);
    const y = b.find((t) => t.model === model);
    const at = `tlc ${model}`;
    put('tlc', `${at} figures from`, x?.from ?? 'none', y?.from ?? 'none');
    if (!x || !y) continue;
    put('hash', `${at} specSha256`, x.specSha256, y.specSha256);
    put('hash', `${at} configSha256`, x.configSha256, y.configSha256);
    put('hash', `${at} states dump sha256`, x.dumps?.states?.sha256, y.dumps?.states?.sha256);
    put('hash', `${at} edges dump sha256`, x.dumps?.edges?.sha256, y.dumps?.edges?.sha256);
    put('tlc', `${at} version`, x.tlcVersion, y.tlcVersion);
    put('tlc', `${at} config`, x.config, y.config);
    for (const key of ['generated', 'distinct', 'depth', 'outcome'] as const) put('tlc', `${at} ${key}`, x[key], y[key]);
    put('tlc', `${at} invariants`, x.invariants?.join(','), y.invariants?.join(','));
    put('tlc', `${at} deadlock checking`, x.flags ? (x.flags.deadlockChecking ? 'on' : 'off') : undefined, y.flags ? (y.flags.deadlockChecking ? 'on' : 'off') : undefined);
    put('tlc', `${at} workers`, x.flags?.workers, y.flags?.workers);
  }
}

/** In first-seen order: the old run's, then what only the new one has. */
function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
