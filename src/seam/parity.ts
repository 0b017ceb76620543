/**
 * Parity of a twin with TLC: the twin's reachable states and labelled state graph against TLC's
 * (live, or the committed base.states.txt and base.edges.txt): the same states, the same edges
 * (labels compared where the system's labels are TLC's, src/seam/tlc/graph.ts), and TLC's "states
 * generated" equal to the twin's initial states plus transitions.
 */
import { compareStateSets as compareKeySets } from './state-sets.js';
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

/** The one comparison (src/seam/state-sets.ts), in the seam's words (model, not machine). */
export function compareStateSets(model: Iterable<string>, tlc: Iterable<string>, show = 5): StateSetParity {
  const c = compareKeySets(model, tlc, show);
  return { equal: c.equal, modelCount: c.machineCount, tlcCount: c.tlcCount, onlyModelCount: c.onlyMachineCount, onlyTlcCount: c.onlyTlcCount, onlyModel: c.onlyMachine, onlyTlc: c.onlyTlc };
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
