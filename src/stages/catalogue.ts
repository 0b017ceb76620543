/**
 * verify's own stages, over every system, as stage objects (src/core/stage.ts): what each is, the
 * verify options it takes, and its run — loaded only when the stage runs, so that reading the
 * catalogue (verify's plan, its help) costs nothing. A system's own stages come from its package.
 */
import { constantsOption } from '../core/args.js';
import { defineStage, type Stage } from '../core/stage.js';

/** The stages verify starts first (the longest), before the systems' own. */
export const FIRST: readonly Stage[] = [
  defineStage({
    name: 'tlc',
    what: "TLC on every system's base config and mutant configs, compared with its committed evidence in evidence/tlc/<system>/ (needs Java + tla2tools.jar)",
    heavy: true,
    layer: 'tla',
    takes: [],
    run: async (_p, io) => {
      const [{ tlcStage }, { selectSystemNames }] = await Promise.all([import('./tlc.js'), import('../registry/select.js')]);
      return tlcStage({ systems: selectSystemNames(['all']), mutants: true }, io);
    },
  }),
  defineStage({
    name: 'mutants:impl',
    what: 'every mutant applied to the real code of its system and killed there by its expected invariant (the tour, the drills, the property runs)',
    heavy: true,
    layer: 'impl',
    recordsTraces: true,
    shardable: true,
    // Its unpatched tours are the conform stage's tours (src/verify/plan.ts).
    serves: 'conform',
    takes: [],
    run: async (p) =>
      (await import('./mutants.js')).mutantsStage({ layers: ['impl'], ...(p.shard ? { shard: p.shard } : {}), ...(p.serveReport !== undefined ? { conformReport: p.serveReport } : {}) }),
  }),
];

/** The stages verify starts after the systems' own. */
export const LAST: readonly Stage[] = [
  defineStage({
    name: 'conform',
    what: "exhaustive conformance tour of every system with one: every model transition and refused attempt executed on the real code (where a system's whole graph takes minutes, at the gate bound its tour declares)",
    heavy: true,
    shardable: true,
    takes: ['constants'],
    run: async (p, io) => (await import('./conform.js')).conformStage({ constants: constantsOption(p.constants), gate: true, ...(p.shard ? { shard: p.shard } : {}) }, io),
  }),
  defineStage({
    name: 'explore',
    what: 'exhaustive exploration of the XState machine, every invariant on every state',
    heavy: true,
    takes: ['constants'],
    run: async (p, io) => (await import('./explore.js')).exploreStage(p.constants ? { constants: p.constants } : {}, io),
  }),
  defineStage({
    name: 'mutants:model',
    what: "every mutant applied to its system's XState machine, killed by exhaustive exploration",
    heavy: true,
    layer: 'model',
    takes: [],
    run: async () => (await import('./mutants.js')).mutantsStage({ layers: ['model'] }),
  }),
  defineStage({
    name: 'parity',
    what: "machine reachable states and labelled edges equal to TLC's state graph",
    heavy: true,
    takes: [],
    run: async (_p, io) => (await import('./parity.js')).parityStage({}, io),
  }),
  defineStage({
    name: 'evidence',
    what: 'committed TLC evidence of every system complete and not stale (no Java needed)',
    heavy: false,
    takes: [],
    run: async () => (await import('./evidence.js')).evidenceStage(),
  }),
  defineStage({
    name: 'systems',
    what: "every system's twin explored, its state set equal to TLC's, every mutant killed as TLC kills it",
    heavy: false,
    takes: [],
    run: async () => (await import('./systems.js')).systemsStage(),
  }),
  defineStage({
    name: 'lua-check',
    what: "every key the project's Lua scripts touch is declared in KEYS (key positions from Valkey 8's key specs)",
    heavy: false,
    takes: [],
    run: async () => (await import('./lua-check.js')).luaCheckStage(),
  }),
  defineStage({
    name: 'tracecheck',
    what: "TLC judges the observed behaviour of this verify's own sampled runs (property runs, walks, drills, the impl layer's counterexamples) against each system's spec: unpatched runs accepted, each mutant's run rejected at the step its run predicts (needs Java + tla2tools.jar)",
    heavy: true,
    afterRecorders: true,
    sameToolAs: 'tlc',
    takes: [],
    run: async (_p, io) => (await import('./tracecheck.js')).tracecheckStage({ observed: true }, io),
  }),
];
