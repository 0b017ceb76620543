import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TRACE_SCHEMA_V1 } from '../../src/core/trace-format.js';
import { shortestSystemCounterexample } from '../../src/seam/explore.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { pathToTrace } from '../../src/seam/trace.js';
import { loadSystemManifest } from '../../src/registry/systems.js';
import { pauseSystem } from '../../src/systems/pause/system.js';
import { loadTraceFile, TraceFormatError, validateTrace } from '../../src/trace/load.js';
import { traceMermaid } from '../../src/trace/mermaid.js';
import { sequenceDiagram } from '../../src/trace/sequence.js';
import { firstBrokenStep, stepTable } from '../../src/trace/steps.js';
import { traceSvg } from '../../src/trace/svg.js';
import { withSystem } from '../../src/trace/systems.js';
import { formatStepTable, traceHeadline } from '../../src/trace/text-table.js';
import { runCli as cli } from '../verify/run-cli.js';
import { M1_BREAK_STEP, m1Steps, m1Trace, plain } from './fixtures.js';

// Every file a test writes goes here, removed at the end (also when a test fails).
const scratch = mkdtempSync(join(tmpdir(), 'fencecheck-trace-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tmpFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(scratch, 'f-')), name);
  writeFileSync(path, content);
  return path;
}

/** The M1 trace as fencecheck.trace/1 wrote it: fencing's own state form, plain JSON. */
function m1TraceV1(): Record<string, unknown> {
  return plain({
    schema: TRACE_SCHEMA_V1,
    system: 'fencing',
    source: 'model',
    bounds: { pods: ['p1', 'p2', 'p3'], maxGen: 4 },
    mutant: 'M1',
    violated: 'Inv_SingleAuthority',
    brokenAtEnd: ['Inv_SingleAuthority'],
    steps: m1Steps(),
  });
}

/** The pause system's shortest counterexample under P5 (ready before the snapshot), as the seam writes it. */
async function pauseTrace() {
  const sys = pauseSystem();
  const p5 = await mutatedSystem(sys, loadSystemManifest().mutants.find((m) => m.id === 'P5')!);
  return pathToTrace(p5, shortestSystemCounterexample(p5, 'Inv_ReadyAfterSnapshot')!, { mutant: 'P5', violated: 'Inv_ReadyAfterSnapshot' });
}

describe('trace format (fencecheck.trace/2)', () => {
  it('accepts a well-formed trace and rejects each kind of malformed one with the field named', () => {
    expect(validateTrace(plain(m1Trace()))).toMatchObject({ mutant: 'M1', system: 'fencing' });
    const bad = (mutate: (t: Record<string, unknown>) => void) => {
      const t = plain(m1Trace()) as unknown as Record<string, unknown>;
      mutate(t);
      return () => validateTrace(t, 'x.json');
    };
    const step = (t: Record<string, unknown>, i: number) => (t.steps as Record<string, unknown>[])[i]! as { state: Record<string, unknown>; action: unknown; broken: unknown };
    expect(bad((t) => (t.schema = 'fencecheck.trace/0'))).toThrow(/schema must be "fencecheck.trace\/2"/);
    expect(bad((t) => (t.steps = []))).toThrow(/steps must be a non-empty array/);
    expect(bad((t) => delete step(t, 2).state.mode)).toThrow(/steps\[2\]\.state lacks variable mode/);
    expect(bad((t) => (step(t, 1).state.oldGen = 1.5))).toThrow(/steps\[1\]\.state\.oldGen: 1\.5 is not an integer/);
    expect(bad((t) => (step(t, 1).state.extra = true))).toThrow(/steps\[1\]\.state\.extra is not one of vars/);
    expect(bad((t) => (step(t, 0).action = 'Next'))).toThrow(/steps\[0\]\.action must be "Init"/);
    expect(bad((t) => (step(t, 3).broken = 'Inv_X'))).toThrow(/steps\[3\]\.broken must be an array/);
    expect(bad((t) => (t.system = 'Fencing System'))).toThrow(/system must be a system's name/);
    expect(bad((t) => (t.colour = 'red'))).toThrow(/unknown field "colour"/);
    expect(() => loadTraceFile('/nonexistent/trace.json')).toThrow(TraceFormatError);
  });

  it('reads a fencecheck.trace/1 file of a system and, through the system, gives the very trace /2 writes', async () => {
    const v1 = validateTrace(m1TraceV1(), 'm1-v1.json');
    expect(v1).toMatchObject({ schema: 'fencecheck.trace/2', system: 'fencing', imported: { format: 'trace/1' } });
    // Read structurally: the pods' versions are a record until the system reads them.
    expect(v1.steps[2]!.state.version).toEqual({ p1: 'A', p2: 'O', p3: 'O' });
    const exact = await withSystem(v1, 'm1-v1.json');
    const now = m1Trace();
    expect(exact.vars).toEqual(now.vars);
    expect(exact.steps.map((s) => [s.action, s.params, s.state, s.broken])).toEqual(now.steps.map((s) => [s.action, s.params, s.state, s.broken]));
    expect(exact.steps[2]!.state.version).toEqual({
      '#map': [
        ['p1', 'A'],
        ['p2', 'O'],
        ['p3', 'O'],
      ],
    });
  });

  it('reads a committed /1 TLC evidence record (a system\'s trace kept as system "tla") as that system\'s trace', async () => {
    const raw = validateTrace(JSON.parse((await import('node:fs')).readFileSync(join(process.cwd(), 'evidence/tlc/pause/P5.json'), 'utf8')), 'P5.json');
    expect(raw.system).toBe('pause');
    const t = await withSystem(raw, 'P5.json');
    expect(t.vars).toEqual(pauseSystem().variables);
    expect(t.steps.at(-1)!.broken).toContain('Inv_ReadyAfterSnapshot');
  });
});

describe('step table (any system)', () => {
  it('splits per-pod functions and leases into columns, marks exactly what each step changed and where an invariant breaks', () => {
    const t = stepTable(m1Trace());
    expect(t.columns.slice(0, 6)).toEqual(['version[p1]', 'version[p2]', 'version[p3]', 'target', 'oldLease.owner', 'oldLease.gen']);
    expect([...t.rows[0]!.changed]).toEqual([]);
    expect([...t.rows[2]!.changed]).toEqual(['version[p1]']);
    expect([...t.rows[7]!.changed].sort()).toEqual(['lastIssued', 'oldGen', 'oldLease.gen', 'oldLease.owner']);
    expect([...t.rows[8]!.changed].sort()).toEqual(['lastIssued', 'newGen', 'newLease.gen', 'newLease.owner']);
    expect(t.rows[8]).toMatchObject({ action: 'AcquireB(p1)', pod: 'p1', newlyBroken: ['Inv_SingleAuthority'] });
    expect(firstBrokenStep(t)).toBe(M1_BREAK_STEP);
    const text = formatStepTable(m1Trace(), { color: false });
    expect(text.split('\n')[10]).toMatch(/^8\s+AcquireB\(p1\)\s+B\s+A\s+A\s+B\s+p2\s+1\s+\*p1\*\s+\*2\*\s+1\s+\*2\*\s+FALSE\s+disabled\s+\*2\*\s+TRUE\s+Inv_SingleAuthority$/);
    expect(formatStepTable(m1Trace(), { color: true })).toContain('\x1b[7mp1');
    expect(traceHeadline(m1Trace())).toMatch(
      /^system=fencing · source=model · spec=tla\/fencing\/RedisClusterFencingMigration\.tla · mutant=M1 · pods=\{p1, p2, p3\} maxGen=4 · 10 variables · 9 states · violates Inv_SingleAuthority/,
    );
  });

  it("renders another system's trace the same way: pause's per-replica variables split, its replicas as actors", async () => {
    const t = await pauseTrace();
    const table = stepTable(t);
    expect(table.columns).toContain('ready[r1]');
    expect(table.columns).toContain('snap[r2]');
    const last = table.rows.at(-1)!;
    expect(last.newlyBroken).toEqual(['Inv_ReadyAfterSnapshot']);
    expect(last.action).toMatch(/^Ready\(r\d\)$/);
    const d = sequenceDiagram(t);
    expect(d.participants.map((p) => p.label)).toEqual([last.pod, 'pause state']);
    expect(traceMermaid(t)).toContain(`Note over state: ✗ Inv_ReadyAfterSnapshot`);
  });
});

describe('sequence diagram', () => {
  it('draws each step from its actor (or the environment) to the state, with what it changed, and a note where two leases are live', () => {
    const d = sequenceDiagram(m1Trace());
    expect(d.participants.map((p) => p.id)).toEqual(['env', 'a_p1', 'a_p2', 'a_p3', 'state']);
    const msgs = d.items.filter((i) => i.kind === 'message');
    expect(msgs.find((m) => m.step === 1)).toMatchObject({ from: 'env', to: 'state', label: 'AdvanceTarget: target := A' });
    expect(msgs.find((m) => m.step === 7)).toMatchObject({ from: 'a_p2', to: 'state', label: 'AcquireA(p2): oldLease.owner := p2, oldLease.gen := 1, oldGen := 1, lastIssued := 1' });
    const alarm = d.items.find((i) => i.kind === 'note' && i.alarm);
    expect(alarm).toMatchObject({ step: 8, text: '✗ Inv_SingleAuthority' });
  });

  it('renders as Mermaid text and as standalone SVG', () => {
    const mmd = traceMermaid(m1Trace());
    expect(mmd.split('\n')[0]).toBe('sequenceDiagram');
    expect(mmd).toContain('  a_p1->>state: 8. AcquireB(p1): newLease.owner := p1, newLease.gen := 2, newGen := 2, lastIssued := 2');
    expect(mmd).toContain('  Note over state: ✗ Inv_SingleAuthority');
    expect(mmd).not.toMatch(/;/);
    const svg = traceSvg(m1Trace(), 'm1');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<g class="message"/g)).toHaveLength(8);
    expect(svg).toContain('class="note alarm" data-step="8"');
    expect(svg).not.toMatch(/<script|href="http/);
  });
});

describe('fencecheck trace show', () => {
  it('prints the table, Mermaid and JSON of /2 and /1 files; bad files exit 3, wrong usage 64', async () => {
    const file = tmpFile('m1.json', JSON.stringify(m1Trace()));
    const table = await cli(['trace', 'show', file]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/mutant=M1/);
    expect(table.stdout).toMatch(/\*p1\*\s+\*2\*/);
    const mmd = await cli(['trace', 'show', file, '--mermaid']);
    expect(mmd.stdout.startsWith('sequenceDiagram')).toBe(true);
    const json = await cli(['trace', 'show', file, '--json']);
    const parsed = JSON.parse(json.stdout) as { system: string; steps: { changed: string[]; broken: string[] }[] };
    expect(parsed.system).toBe('fencing');
    expect(parsed.steps[8]!.broken).toEqual(['Inv_SingleAuthority']);
    const v1 = await cli(['trace', 'show', tmpFile('m1-v1.json', JSON.stringify(m1TraceV1())), '--json']);
    expect(v1.code).toBe(0);
    expect((JSON.parse(v1.stdout) as { steps: unknown[] }).steps).toEqual(parsed.steps);
    const pause = await cli(['trace', 'show', tmpFile('p5.json', JSON.stringify(await pauseTrace())), '--no-color']);
    expect(pause.code).toBe(0);
    expect(pause.stdout).toMatch(/system=pause .* mutant=P5/);
    expect(pause.stdout).toMatch(/Ready\(r\d\).*Inv_ReadyAfterSnapshot$/m);
    const broken = await cli(['trace', 'show', tmpFile('bad.json', '{"schema":"nope"}')]);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/schema must be/);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    const notJson = await cli(['trace', 'show', tmpFile('bad.txt', 'hello\nworld')]);
    expect(notJson.code).toBe(3);
    expect(notJson.stderr.trim().split('\n')).toHaveLength(1);
    expect((await cli(['trace', 'show'])).code).toBe(64);
    expect((await cli(['trace', 'explode', file])).code).toBe(64);
  });
});
