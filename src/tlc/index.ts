// The TLC runner's public surface: locate Java + tla2tools.jar, run TLC with -tool, parse its
// messages into typed results and fencecheck.trace/1 traces, read its labelled state graph (dot), and
// read/check the committed evidence.
export { TlcOutputError, TlcUnavailableError } from './errors.js';
export { findJar, findJava, locateTlc, NO_JAR_REASON, NO_JAVA_REASON, PROJECT_JAR, type TlcTools } from './locate.js';
export { runTlc, type TlcRun, type TlcRunOptions } from './run.js';
export { EC, isConfigErrorCode, parseToolOutput, splitToolOutput, type SanyDiagnostic, type TlcLoop, type TlcOutcome, type TlcResult, type TlcTraceStep, type UnreadableTraceValue, type ViolationKind } from './tool-output.js';
export { exitMeaning, expectedExitCodes, reconcileExit, TLC_EXIT } from './exit-status.js';
export { formatTlaValue, parseTlaState, parseTlaValue, readTlaState, type TlaValue } from '../core/tla-value.js';
export { tlaToItf, toTlaTrace } from './to-itf.js';
export { checkSpec, type SpecCheck, type SpecCheckOptions } from './spec-check.js';
export { PassThroughError, resolvePassThrough } from './pass-through.js';
export { toFencingState } from '../systems/fencing/tlc/state.js';
export { toFencingTrace } from '../systems/fencing/tlc/trace.js';
export { dumpToCanonicalLines, parseStateDump } from './dump.js';
export { parseCanonicalKey } from '../systems/fencing/tlc/canonical.js';
export { BASE_CONFIG_PATH, readCfg, SPEC_PATH } from '../systems/fencing/tlc/config.js';
export { checkBase, checkMutant, verdictOf } from '../systems/fencing/tlc/check.js';
export { judgeMutant, mutantResult, runConfig, type CheckOptions, type DumpKind } from '../seam/tlc/mutant-judge.js';
export { checkSystemBase, checkSystemMutant, entryVariants, type SystemBaseCheck, type SystemMutantCheck } from '../seam/tlc/system-check.js';
export { evidenceStatus, loadAllEvidence, readBaseEdges, readBaseStateDump, type EdgeDump, type EdgeEvidence, type EvidenceStatus, type RunEvidence, type StateDump } from '../systems/fencing/tlc/evidence.js';
export { parseDotStateGraph, type DotEdge, type DotGraph } from './dot.js';
export { canonicalEdgesSha256, dotToFencingGraph, edgeLine, podOfStep, type FencingGraph } from '../systems/fencing/tlc/edges.js';
