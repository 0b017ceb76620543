/**
 * docs/schema/fencecheck.trace-1.schema.json is the published form of what src/trace/load.ts
 * accepts: every trace the project writes validates against it (the committed TLC evidence's
 * traces, the hand-built fixtures, imported -dumpTrace json and ITF files, `tlc --spec` traces of
 * other specs, a lasso), and broken ones do not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { toTlaTrace } from '../../src/tlc/to-itf.js';
import { parseToolOutput } from '../../src/tlc/tool-output.js';
import { toItf } from '../../src/trace/export-itf.js';
import { importTrace } from '../../src/trace/import.js';
import { validateAnyTrace } from '../../src/trace/load.js';
import { pathToTrace } from '../../src/systems/fencing/model/trace.js';
import type { FencingEvent } from '../../models/fencing/index.js';
import { fixturePath } from '../tlc/captures.js';
import { m1Trace } from './fixtures.js';
import { validateAgainst } from './json-schema.js';

const schema = JSON.parse(readFileSync(join(projectRoot, 'docs/schema/fencecheck.trace-1.schema.json'), 'utf8')) as Record<string, unknown>;
const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as Record<string, unknown>;

function written(): [string, unknown][] {
  const out: [string, unknown][] = [['test/trace/fixtures m1Trace', plain(m1Trace())]];
  // The XState exploration's form (src/systems/fencing/model/trace.ts) and a conformance-tour step (integer params, observed).
  const path = m1Trace().steps.map((s, i) => ({ event: i === 0 ? null : ({ type: s.action, ...s.params } as FencingEvent), state: s.state }));
  out.push(['model pathToTrace', plain(pathToTrace(path, { bounds: m1Trace().bounds, mutant: 'M1', violated: 'Inv_SingleAuthority' }))]);
  const tour = plain(m1Trace('conform')) as { steps: Record<string, unknown>[] };
  tour.steps[8] = { ...tour.steps[8], action: 'Renew', params: { p: 'p1', gen: 2 }, observed: { attempt: 'renew', decision: 'refusal' } };
  out.push(['conformance tour trace', tour]);
  for (let i = 1; i <= 9; i++) {
    const e = JSON.parse(readFileSync(join(projectRoot, `evidence/tlc/fencing/M${i}.json`), 'utf8')) as { trace: unknown };
    out.push([`evidence/tlc/fencing/M${i}.json trace`, e.trace]);
  }
  for (const f of ['mutant-M1', 'values', 'liveness-loop', 'liveness-stutter']) out.push([`import ${f}.dumptrace.json`, plain(importTrace(JSON.parse(readFileSync(fixturePath(`${f}.dumptrace.json`), 'utf8'))))]);
  for (const f of ['values', 'liveness-loop', 'liveness-stutter', 'deadlock-small']) out.push([`tlc --spec trace of ${f}.out`, plain(toTlaTrace(parseToolOutput(readFileSync(fixturePath(`${f}.out`), 'utf8')), f))]);
  out.push(['ITF round trip', plain(importTrace(plain(toItf(m1Trace()))))]);
  out.push(['fencing lasso', { ...plain(m1Trace()), loop: 0, loopAction: { action: 'RollbackPhase', params: {} } }]);
  return out;
}

describe('the published JSON Schema of fencecheck.trace/1', () => {
  it('accepts every trace the project writes (and so does the loader)', () => {
    for (const [what, t] of written()) {
      expect(validateAgainst(schema, t), what).toBeNull();
      expect(() => validateAnyTrace(t, what)).not.toThrow();
    }
  });

  it('rejects what the loader rejects', () => {
    const t = plain(m1Trace());
    const broken = (f: (x: Record<string, unknown>) => void) => {
      const x = plain(t);
      f(x);
      return validateAgainst(schema, x);
    };
    expect(broken((x) => (x.schema = 'fencecheck.trace/0'))).toMatch(/oneOf/);
    expect(broken((x) => ((x.steps as { state: { mode: string } }[])[2]!.state.mode = 'sideways'))).not.toBeNull();
    expect(broken((x) => (x.steps = []))).not.toBeNull();
    expect(broken((x) => (x.loop = -1))).not.toBeNull();
    expect(broken((x) => (x.extra = 1))).not.toBeNull();
    const tla = plain(toTlaTrace(parseToolOutput(readFileSync(fixturePath('values.out'), 'utf8')))!);
    (tla.steps as { state: Record<string, unknown> }[])[0]!.state.i = { '#bigint': 'one' };
    expect(validateAgainst(schema, tla)).not.toBeNull();
  });

  it('uses only keywords the validator knows', () => {
    expect(() => validateAgainst({ ...schema, if: {} }, {})).toThrow(/outside the validator's subset/);
  });
});
