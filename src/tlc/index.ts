// The TLC runner's public surface: locate Java + tla2tools.jar, run TLC with -tool, parse its
// messages into typed results and traces, read its state dumps and labelled state graph (dot).
export { TlcOutputError, TlcUnavailableError } from './errors.js';
export { findJar, findJava, locateTlc, NO_JAR_REASON, NO_JAVA_REASON, PROJECT_JAR, type TlcTools } from './locate.js';
export { runTlc, type TlcRun, type TlcRunOptions } from './run.js';
export {
  EC,
  isConfigErrorCode,
  parseToolOutput,
  splitToolOutput,
  type SanyDiagnostic,
  type TlcLoop,
  type TlcOutcome,
  type TlcResult,
  type TlcTraceStep,
  type UnreadableTraceValue,
  type ViolationKind,
} from './tool-output.js';
export { exitMeaning, expectedExitCodes, reconcileExit, TLC_EXIT } from './exit-status.js';
export { formatTlaValue, parseTlaState, parseTlaValue, readTlaState, type TlaValue } from '../core/tla-value.js';
export { tlaToItf, toTlaTrace } from './to-itf.js';
export { checkSpec, type SpecCheck, type SpecCheckOptions } from './spec-check.js';
export { PassThroughError, resolvePassThrough } from './pass-through.js';
export { parseStateDumpWith } from './dump.js';
export { parseDotStateGraph, type DotEdge, type DotGraph } from './dot.js';
