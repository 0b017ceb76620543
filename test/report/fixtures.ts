/**
 * A fixture verify run for renderer tests: stage outcomes of every status, mutant results of every
 * kind, and one real trace file on disk. Built through the same functions verify uses (matrix,
 * verdict, TLC summary), so the fixture cannot drift from the document's shape.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifest } from '../../src/core/manifest.js';

/**
 * The manifest the fixture reports were made with (fencing, failover, limiter, pause: 22 mutants), so
 * the rendering tests do not change when a system joins the live manifest.
 */
export const fixtureManifest = () => loadManifest(join(dirname(fileURLToPath(import.meta.url)), 'fixtures/manifest.json'));
import type { MutantResult } from '../../src/core/verdict.js';
import { mutationMatrix } from '../../src/report/matrix.js';
import { stageReport, type StageReport } from '../../src/core/stage-report.js';
import { tlcSummary } from '../../src/report/tlc-summary.js';
import { detailsSection } from '../../src/core/details-blocks.js';
import { tlcModelBlock, type EvidenceRecord } from '../../src/tlc/evidence-block.js';
import { limiterSection, type TopologyRun } from '../../src/systems/limiter/report.js';
import { VERIFY_SCHEMA, type StageOutcome, type VerifyReport } from '../../src/report/verify-doc.js';
import { interpretStage } from '../../src/verify/interpret.js';
import { verifyVerdict } from '../../src/verify/verdict.js';
import { FALLBACK_OF_LAYER, STAGE_OF_LAYER } from '../../src/verify/stages.js';
import { m1Trace } from '../trace/fixtures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

export const M1_TRACE_PATH = 'reports/traces/model-M1.trace.json';

/**
 * Real `fencecheck conform --json` outputs, captured by running the command (Pods=3 MaxGen=4):
 * conform-pass.json (`conform --json`: the real graph is the model's) and conform-M1.json
 * (`conform --mutant M1 --json`: Inv_SingleAuthority breaks after 8 steps; exit 1), with the trace
 * that run saved (conform-M1.trace.json, at CONFORM_M1_TRACE_PATH in the fixture root).
 */
const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const CONFORM_M1_TRACE_PATH = 'reports/traces/conform-M1-Inv_SingleAuthority.json';
export type ConformFixture = 'pass' | 'M1';

export function conformStdout(which: ConformFixture): string {
  return readFileSync(join(FIXTURE_DIR, `conform-${which}.json`), 'utf8');
}

export function conformTraceText(): string {
  return readFileSync(join(FIXTURE_DIR, 'conform-M1.trace.json'), 'utf8');
}

/** The conform stage's outcome, interpreted from the captured stdout exactly as verify interprets a child's. */
export function conformOutcome(which: ConformFixture | { stdout: string; exitCode: number }): StageOutcome {
  const { stdout, exitCode } = typeof which === 'string' ? { stdout: conformStdout(which), exitCode: which === 'pass' ? 0 : 1 } : which;
  return interpretStage({
    stage: 'conform',
    command: ['conform', '--json'],
    allowedNotRun: false,
    timeoutMs: 2_700_000,
    logPath: 'stages/conform.log',
    child: { exitCode, signal: null, stdout, stderr: 'conform: real scripts, gate and door on real Valkey\n', startedAt: at, durationMs: 23_800, timedOut: false, leftoverProcesses: 0 },
  });
}

function outcome(stage: string, report: StageReport, extra: Partial<StageOutcome> = {}): StageOutcome {
  return {
    stage,
    command: [stage, '--json'],
    status: report.status,
    ...(report.reason !== undefined ? { reason: report.reason } : {}),
    allowedNotRun: false,
    exitCode: report.status === 'passed' ? 0 : report.status === 'failed' ? 1 : 2,
    signal: null,
    startedAt: report.startedAt,
    durationMs: report.durationMs,
    summary: report.summary,
    ...(report.counts ? { counts: report.counts } : {}),
    leftoverProcesses: 0,
    logPath: `stages/${stage.replace(':', '_')}.log`,
    report,
    ...extra,
  };
}

const at = '2026-11-30T06:00:00.000Z';

/** The committed fencing evidence as the evidence stage reads it (its hashes made up). */
export const EVIDENCE_BASE: EvidenceRecord = {
  spec: 'tla/fencing/RedisClusterFencingMigration.tla',
  specSha256: 'ab'.repeat(32),
  config: 'tla/fencing/RedisClusterFencingMigration.cfg',
  configSha256: 'dc'.repeat(32),
  tlcVersion: '2.19 of 08 August 2024',
  bounds: { pods: ['p1', 'p2', 'p3'], maxGen: 4 },
  invariants: ['TypeOK', 'Inv_SingleAuthority'],
  command: '',
  outcome: 'ok',
  generated: 12636,
  distinct: 3637,
  depth: 27,
  durationMs: 4200,
};

const parityCounts = { machine: 3637, tlc: 3637, onlyMachine: 0, onlyTlc: 0 };
const parityRaw = { actions: [{ action: 'AcquireB', event: 'AcquireB', script: 'src/systems/fencing/lua/B/acquire.lua' }] };
const parityDetails = {
  ...parityRaw,
  sections: [
    detailsSection({
      id: 'stage-parity',
      title: 'Parity report',
      intro: "The XState machine's reachable states against the TLC state dump, and the action ↔ event ↔ script table.",
      counts: parityCounts,
      details: parityRaw,
    }),
  ],
};

const rowStats = (n: number) => ({
  cases: 3 * n,
  casesPerRow: { 'deny-first': n, 'deny-second': 240, 'allow-both': 449, 'single-allow': 4, 'single-deny': 5, error: 6, unknown: 2 },
  calls: { 'deny-first': 2 * n, 'deny-second': 240, 'allow-both': 449, 'single-allow': 4, 'single-deny': 5, error: 6, unknown: 2 },
  maxCaseMs: 12,
  slowCases: 0,
});

/** The limiter stage's runs as `fencecheck limiter` reports them: both topologies held. */
export const LIMITER_RUNS: TopologyRun[] = [
  {
    topology: 'standalone',
    status: 'ran',
    property: { passed: true, topology: 'standalone', numRuns: 1000, seed: 7, faults: true, stats: rowStats(311) },
    invariants: [{ name: 'script_flush_fallback', title: 'SCRIPT FLUSH exercises the fallback', status: 'passed', detail: 'one EVAL' }],
  },
  {
    topology: 'cluster',
    status: 'ran',
    property: { passed: true, topology: 'cluster', numRuns: 1000, seed: 8, faults: false, stats: rowStats(0) },
    invariants: [{ name: 'script_flush_fallback', title: 'SCRIPT FLUSH exercises the fallback', status: 'not-run', detail: 'needs an owned topology' }],
  },
];

export function fixtureOutcomes(): StageOutcome[] {
  const killed = (id: string, inv: string, extra: Partial<MutantResult> = {}): MutantResult => ({
    id,
    layer: 'model',
    verdict: 'killed',
    expectedInvariant: inv,
    violated: inv,
    traceLength: 9,
    ...extra,
  });
  const modelResults: MutantResult[] = [
    killed('M1', 'Inv_SingleAuthority', { tracePath: M1_TRACE_PATH, alsoBroken: [] }),
    killed('M2', 'Inv_SingleAuthority'),
    { id: 'M3', layer: 'model', verdict: 'survived', expectedInvariant: 'Inv_Monotonic', reason: 'exploration finished with every invariant holding' },
    killed('M4', 'Inv_SingleAuthority', { alsoBroken: ['Inv_Monotonic'] }),
    killed('M5', 'Inv_Monotonic'),
    killed('M6', 'Inv_SingleAuthority'),
    killed('M7', 'Inv_Monotonic'),
    killed('M8', 'Inv_SingleAuthority'),
    killed('M9', 'Inv_SlotRulesSafe'),
    // The seam systems' model layer (pause, replication): killed with TLC's lengths, no trace file.
    killed('P1', 'Inv_NoRevert'),
    killed('P2', 'Inv_OnlyCommitted', { traceLength: 5 }),
    killed('P3', 'Inv_ReconcileFresh'),
    killed('P4', 'Inv_FailClosed', { traceLength: 5 }),
    killed('P5', 'Inv_ReadyAfterSnapshot', { traceLength: 2 }),
    killed('P6', 'Inv_NoMissedEvent'),
    killed('R1', 'Inv_Monotonic', { traceLength: 4, alsoBroken: ['Inv_SingleAuthority'] }),
  ];
  const tlcReason = 'no tla2tools.jar (set TLA2TOOLS_JAR)';
  return [
    outcome('tlc', stageReport({ stage: 'tlc', status: 'not-run', reason: tlcReason, startedAt: at, durationMs: 310, summary: `not run: ${tlcReason}` }), { allowedNotRun: true }),
    outcome(
      'evidence',
      stageReport({
        stage: 'evidence',
        status: 'passed',
        startedAt: at,
        durationMs: 420,
        summary: 'evidence complete: base + 9 mutants, spec hash matches',
        counts: { configs: 10 },
        details: { tlcModels: [tlcModelBlock(EVIDENCE_BASE, 'evidence')], sections: [detailsSection({ id: 'stage-evidence', title: 'Stage: evidence', counts: { configs: 10 } })] },
      }),
    ),
    outcome(
      'mutants:model',
      stageReport({
        stage: 'mutants:model',
        status: 'failed',
        reason: '15/16 mutants killed; not killed: M3 survived',
        startedAt: at,
        durationMs: 5200,
        summary: '15/16 mutants killed',
        counts: { mutants: 16, killed: 15 },
        mutants: modelResults,
        traces: [M1_TRACE_PATH],
      }),
    ),
    outcome('parity', stageReport({ stage: 'parity', status: 'passed', startedAt: at, durationMs: 2100, summary: 'machine states = TLC states (3637)', counts: parityCounts, details: parityDetails })),
    outcome(
      'limiter',
      stageReport({
        stage: 'limiter',
        status: 'passed',
        startedAt: at,
        durationMs: 9100,
        summary: '1000 cases, every row exercised',
        details: { runs: LIMITER_RUNS, sections: [limiterSection(LIMITER_RUNS)] },
      }),
    ),
    outcome('props', stageReport({ stage: 'props', status: 'passed', startedAt: at, durationMs: 1, summary: '' }), {
      status: 'error',
      reason: 'killed by SIGSEGV',
      exitCode: null,
      signal: 'SIGSEGV',
      report: null,
      summary: 'killed by SIGSEGV',
    }),
  ];
}

/** The fixture run; with `conform`, the conform stage's outcome too (a captured fixture, or one built by the test). */
export function fixtureReport(opts: { conform?: ConformFixture | StageOutcome } = {}): VerifyReport {
  const base = fixtureOutcomes();
  const conform = opts.conform === undefined ? undefined : typeof opts.conform === 'string' ? conformOutcome(opts.conform) : opts.conform;
  // In the stage catalogue's order: conform after parity.
  const outcomes = conform ? [...base.slice(0, 4), conform, ...base.slice(4)] : base;
  const traces = new Set<string>();
  for (const o of outcomes) {
    for (const t of o.report?.traces ?? []) traces.add(t);
    for (const m of o.report?.mutants ?? []) if (m.tracePath) traces.add(m.tracePath);
  }
  const matrix = mutationMatrix(fixtureManifest(), outcomes, STAGE_OF_LAYER);
  return {
    schema: VERIFY_SCHEMA,
    tool: { name: 'fencecheck', version: '0.1.0' },
    startedAt: at,
    finishedAt: '2026-11-30T06:00:20.000Z',
    durationMs: 20_000,
    host: { node: 'v20.20.2', platform: 'linux', arch: 'x64', cpus: 2 },
    git: { commit: '0'.repeat(40), dirty: true },
    options: { stages: outcomes.map((o) => o.stage), notSelected: ['explore', 'mutants:impl', 'mutants:limiter'], allowNotRun: ['tlc'], jobs: 2, stageTimeoutMs: 2_700_000, out: 'reports' },
    verdict: verifyVerdict(outcomes, matrix),
    stages: outcomes,
    tlc: tlcSummary(outcomes),
    mutationMatrix: matrix,
    traces: [...traces].sort(),
  };
}

/** A temporary project root holding the fixture's trace file; returns its path. */
export function fixtureRoot(): string {
  const root = ownedTempDir('report');
  mkdirSync(join(root, 'reports/traces'), { recursive: true });
  writeFileSync(join(root, M1_TRACE_PATH), JSON.stringify(m1Trace(), null, 2));
  writeFileSync(join(root, CONFORM_M1_TRACE_PATH), conformTraceText());
  return root;
}

/**
 * A complete run as a full `verify` produces it: TLC not run here (its column from the evidence,
 * the widest cells), every other mutant layer run and killed, 41 traces (M1–M9, P1–P6 and R1 at
 * tla and impl; M1–M9 at model: the seam's model layer saves none) and the limiter's seed/path
 * counterexamples. For the layout (matrix width) and collapsed traces.
 */
export const FULL_TRACE_COUNT = 41;

export function fullReport(): { report: VerifyReport; root: string } {
  const manifest = fixtureManifest();
  const root = ownedTempDir('report-full');
  mkdirSync(join(root, 'reports/traces'), { recursive: true });
  mkdirSync(join(root, 'evidence/tlc/fencing'), { recursive: true });
  const results = (layer: MutantResult['layer'], dir: string): MutantResult[] =>
    manifest.mutants
      .filter((m) => m.layers[layer])
      .map((m, i) => {
        // The limiter's impl layer names its replay: the patched limiter at that seed and path (src/systems/limiter/impl-runner.ts).
        const limiter = m.system === 'limiter';
        const seedPath = limiter
          ? { seed: -17 - i, path: `${i}:3:1`, replay: `fencecheck limiter --topology standalone --no-invariants --patch ${m.layers.impl!.patch} --seed=${-17 - i} --path=${i}:3:1` }
          : {};
        const tracePath = limiter || (layer === 'model' && m.system !== 'fencing') ? undefined : `${dir}/${layer}-${m.id}.json`;
        if (tracePath) writeFileSync(join(root, tracePath), JSON.stringify({ ...m1Trace(layer === 'tla' ? 'tlc' : layer === 'impl' ? 'conform' : 'model'), mutant: m.id }));
        return {
          id: m.id,
          layer,
          verdict: 'killed',
          expectedInvariant: m.expectedInvariant,
          violated: m.expectedInvariant,
          traceLength: 9,
          durationMs: 1200,
          ...seedPath,
          ...(tracePath ? { tracePath } : {}),
        };
      });
  const stage = (name: string, mutants: MutantResult[], extra: Partial<StageReport> = {}) =>
    outcome(
      name,
      stageReport({
        stage: name,
        status: 'passed',
        startedAt: at,
        durationMs: 60_000,
        summary: `${mutants.length}/${mutants.length} mutants killed`,
        counts: { mutants: mutants.length, killed: mutants.length },
        mutants,
        ...extra,
      }),
    );
  const tlcReason = 'no tla2tools.jar (set TLA2TOOLS_JAR)';
  const outcomes: StageOutcome[] = [
    outcome('tlc', stageReport({ stage: 'tlc', status: 'not-run', reason: tlcReason, startedAt: at, durationMs: 310, summary: `not run: ${tlcReason}` }), { allowedNotRun: true }),
    stage('evidence', results('tla', 'evidence/tlc/fencing')),
    stage('mutants:model', results('model', 'reports/traces')),
    stage('mutants:impl', results('impl', 'reports/traces')),
  ];
  const matrix = mutationMatrix(manifest, outcomes, STAGE_OF_LAYER, FALLBACK_OF_LAYER);
  const traces = [...new Set(outcomes.flatMap((o) => (o.report?.mutants ?? []).flatMap((m) => (m.tracePath ? [m.tracePath] : []))))].sort();
  const report: VerifyReport = {
    ...fixtureReport(),
    options: { stages: outcomes.map((o) => o.stage), notSelected: [], allowNotRun: ['tlc'], jobs: 2, stageTimeoutMs: 2_700_000, out: 'reports' },
    verdict: verifyVerdict(outcomes, matrix),
    stages: outcomes,
    tlc: tlcSummary(outcomes),
    mutationMatrix: matrix,
    traces,
  };
  return { report, root };
}
