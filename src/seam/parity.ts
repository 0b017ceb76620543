/**
 * Parity of a twin with TLC: the twin's reachable states and labelled state graph against TLC's
 * (live, or the committed base.states.txt and base.edges.txt): the same states, the same edges
 * (labels compared where the system's labels are TLC's, src/seam/tlc/graph.ts), and TLC's "states
 * generated" equal to the twin's initial states plus transitions.
 */
import type { StateGraph } from './tlc/graph.js';

export { readCanonicalStateList } from './evidence.js';

export interface StateSetParity {
  readonly equal: boolean;
  readonly modelCount: number;
  readonly tlcCount: number;
  readonly onlyModelCount: number;
  readonly onlyTlcCount: number;
  /** The first differences of each side (sorted), at most `show` each. */
  readonly onlyModel: readonly string[];
  readonly onlyTlc: readonly string[];
}

/** Two sets of canonical keys compared both ways; keeps the first `show` differences of each side. */
export function compareStateSets(model: Iterable<string>, tlc: Iterable<string>, show = 5): StateSetParity {
  const m = new Set(model);
  const t = new Set(tlc);
  const onlyModel = [...m].filter((k) => !t.has(k)).sort();
  const onlyTlc = [...t].filter((k) => !m.has(k)).sort();
  return {
    equal: onlyModel.length === 0 && onlyTlc.length === 0,
    modelCount: m.size,
    tlcCount: t.size,
    onlyModelCount: onlyModel.length,
    onlyTlcCount: onlyTlc.length,
    onlyModel: onlyModel.slice(0, show),
    onlyTlc: onlyTlc.slice(0, show),
  };
}

export interface GraphParity {
  readonly equal: boolean;
  readonly states: StateSetParity;
  readonly edges: StateSetParity;
  /** The twin's initial states + transitions, and TLC's "states generated". */
  readonly generated: { readonly model: number; readonly tlc: number; readonly equal: boolean };
  readonly selfLoops: { readonly model: number; readonly tlc: number };
}

/** The twin's graph (`model`) against TLC's. */
export function compareGraphs(model: StateGraph, tlc: StateGraph, show = 5): GraphParity {
  const states = compareStateSets(model.states, tlc.states, show);
  const edges = compareStateSets(model.edges, tlc.edges, show);
  const generated = {
    model: model.initialStates + model.generatedEdges,
    tlc: tlc.initialStates + tlc.generatedEdges,
    equal: model.initialStates + model.generatedEdges === tlc.initialStates + tlc.generatedEdges,
  };
  return { equal: states.equal && edges.equal && generated.equal, states, edges, generated, selfLoops: { model: model.selfLoops, tlc: tlc.selfLoops } };
}
