/**
 * docs/schema/fencecheck.trace-2.schema.json is the published form of what src/trace/load.ts
 * accepts: every trace the project writes validates against it — of every system (the twins'
 * exploration paths, TLC's counterexamples read through the system, the committed /1 evidence
 * converted, the tour's and the property runs' forms), imported -dumpTrace json and ITF files of
 * every convention, `tlc --spec` traces of other specs, a lasso — and broken ones do not.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { TRACE_SCHEMA, TRACE_SCHEMA_V1, type ModelStep, type ModelTrace } from '../../src/core/trace-format.js';
import { loadSystemManifest, SYSTEMS } from '../../src/registry/systems.js';
import { shortestSystemCounterexample } from '../../src/seam/explore.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { pathToTrace, tlcTrace, traceOfStates } from '../../src/seam/trace.js';
import { saveTrace as saveTourTrace } from '../../src/systems/fencing/model/trace.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { toTlaTrace } from '../../src/tlc/to-itf.js';
import { parseToolOutput } from '../../src/tlc/tool-output.js';
import { toItf } from '../../src/trace/export-itf.js';
import { importTrace } from '../../src/trace/import.js';
import { loadTraceFile, validateTrace } from '../../src/trace/load.js';
import { withSystem } from '../../src/trace/systems.js';
import { fixturePath } from '../tlc/captures.js';
import { m1Steps, m1Trace, plain } from './fixtures.js';
import { validateAgainst } from './json-schema.js';

const schema = JSON.parse(readFileSync(join(projectRoot, 'docs/schema/fencecheck.trace-2.schema.json'), 'utf8')) as Record<string, unknown>;
const read = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));

async function written(): Promise<[string, unknown][]> {
  const out: [string, unknown][] = [['test/trace/fixtures m1Trace', plain(m1Trace())]];
  // Each system's shortest counterexample under one of its model mutants, as the seam writes it.
  const manifest = loadSystemManifest();
  for (const [name, id] of [
    ['fencing', 'M9'],
    ['pause', 'P1'],
    ['failover', 'R1'],
    ['init-limiter', 'I1'],
  ] as const) {
    const entry = manifest.mutants.find((m) => m.id === id)!;
    const sys = await mutatedSystem(await SYSTEMS[name]!(), entry);
    out.push([`${name} ${id} pathToTrace`, plain(pathToTrace(sys, shortestSystemCounterexample(sys, entry.expectedInvariant)!, { mutant: id, violated: entry.expectedInvariant }))]);
  }
  for (const [name, f] of [
    ['fencing', 'mutant-M1.out'],
    ['pause', 'pause-P5.out'],
    ['failover', 'replication-R1.out'],
  ] as const)
    out.push([`${name} tlcTrace of ${f}`, plain(tlcTrace(await SYSTEMS[name]!(), parseToolOutput(readFileSync(fixturePath(f), 'utf8'))))]);
  // The committed evidence (fencecheck.trace/1 inside), converted and read through its system.
  for (const system of ['fencing', 'pause', 'failover', 'init-limiter']) {
    const dir = join(projectRoot, 'evidence/tlc', system);
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json') && x !== 'base.json')) out.push([`evidence/tlc/${system}/${f}`, plain(await withSystem(loadTraceFile(join(dir, f))))]);
  }
  // The conformance tour's form (model states, integer params, observed), as the tour saves it.
  const dir = mkdtempSync(join(tmpdir(), 'fencecheck-schema-'));
  try {
    const steps: ModelStep[] = m1Steps().map((s, i) =>
      i === 8
        ? { action: 'Renew', params: { p: 'p1', gen: 2 }, state: s.state, observed: { attempt: 'renew', decision: 'refused', note: 'not the owner' } }
        : { action: s.action, params: s.params as Record<string, string>, state: s.state },
    );
    const tour: ModelTrace = { schema: TRACE_SCHEMA, system: 'fencing', source: 'conform', bounds: { pods: ['p1', 'p2', 'p3'], maxGen: 4 }, steps };
    out.push(['conformance tour trace', read(resolve(projectRoot, saveTourTrace(tour, 'tour.json', dir)))]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  out.push([
    'property run trace',
    plain(
      traceOfStates(
        fencingSystem(),
        m1Steps().map((s, i) => (i === 0 ? s : { ...s, observed: { intent: 'x', status: 'applied' } })),
        { source: 'props', seed: 42, path: '1:2', violated: 'Inv_SingleAuthority' },
      ),
    ),
  ]);
  for (const f of ['mutant-M1', 'values', 'liveness-loop', 'liveness-stutter']) out.push([`import ${f}.dumptrace.json`, plain(await importTrace(read(fixturePath(`${f}.dumptrace.json`))))]);
  const itfDir = join(projectRoot, 'test/trace/fixtures/itf');
  for (const f of readdirSync(itfDir).filter((x) => x.endsWith('.itf.json'))) out.push([`import itf/${f}`, plain(await importTrace(read(join(itfDir, f))))]);
  for (const f of ['values', 'liveness-loop', 'liveness-stutter', 'deadlock-small'])
    out.push([`tlc --spec trace of ${f}.out`, plain(toTlaTrace(parseToolOutput(readFileSync(fixturePath(`${f}.out`), 'utf8')), f))]);
  out.push(['ITF round trip', plain(await importTrace(plain(toItf(m1Trace()))))]);
  out.push(['lasso', { ...plain(m1Trace()), loop: 0, loopAction: { action: 'RollbackPhase', params: {} } }]);
  return out;
}

describe('the published JSON Schema of fencecheck.trace/2', () => {
  it('accepts every trace the project writes, of every system (and so does the loader)', { timeout: 120_000 }, async () => {
    const all = await written();
    expect(new Set(all.map(([, t]) => (t as { system: string }).system))).toEqual(new Set(['fencing', 'pause', 'failover', 'init-limiter', 'tla']));
    for (const [what, t] of all) {
      expect(validateAgainst(schema, t), what).toBeNull();
      expect(() => validateTrace(t, what)).not.toThrow();
      expect((t as { schema: string }).schema, what).toBe(TRACE_SCHEMA);
    }
  });

  it('rejects what the loader rejects', () => {
    const broken = (f: (x: Record<string, unknown>) => void) => {
      const x = plain(m1Trace()) as unknown as Record<string, unknown>;
      f(x);
      return validateAgainst(schema, x);
    };
    const step = (x: Record<string, unknown>, i: number) => (x.steps as Record<string, unknown>[])[i]! as { state: Record<string, unknown>; params: unknown; broken: unknown };
    expect(broken((x) => (x.schema = TRACE_SCHEMA_V1))).toMatch(/must be "fencecheck.trace\/2"/);
    expect(broken((x) => (step(x, 2).state!.mode = 7))).not.toBeNull();
    expect(broken((x) => (step(x, 2).state!.oldGen = { '#bigint': 'one' }))).not.toBeNull();
    expect(broken((x) => (step(x, 2).params = { p: null }))).not.toBeNull();
    expect(broken((x) => (x.steps = []))).not.toBeNull();
    expect(broken((x) => (x.loop = -1))).not.toBeNull();
    expect(broken((x) => (x.extra = 1))).not.toBeNull();
    expect(broken((x) => (x.system = 'Fencing'))).not.toBeNull();
    expect(broken((x) => (step(x, 1).broken = [1]))).not.toBeNull();
  });

  it('uses only keywords the validator knows', () => {
    expect(() => validateAgainst({ ...schema, if: {} }, {})).toThrow(/outside the validator's subset/);
  });
});
