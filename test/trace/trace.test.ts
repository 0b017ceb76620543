import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrace, TraceFormatError, validateTrace } from '../../src/trace/load.js';
import { traceMermaid } from '../../src/trace/mermaid.js';
import { sequenceDiagram } from '../../src/trace/sequence.js';
import { firstBrokenStep, stepTable } from '../../src/trace/steps.js';
import { traceSvg } from '../../src/trace/svg.js';
import { formatStepTable } from '../../src/trace/text-table.js';
import { runCli as cli } from '../verify/run-cli.js';
import { M1_BREAK_STEP, m1Trace } from './fixtures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

function tmpFile(name: string, content: string): string {
  const path = join(ownedTempDir('trace'), name);
  writeFileSync(path, content);
  return path;
}

describe('trace format', () => {
  it('accepts a well-formed trace and rejects each kind of malformed one with the field named', () => {
    expect(validateTrace(JSON.parse(JSON.stringify(m1Trace())))).toMatchObject({ mutant: 'M1' });
    const bad = (mutate: (t: Record<string, unknown>) => void) => {
      const t = JSON.parse(JSON.stringify(m1Trace())) as Record<string, unknown>;
      mutate(t);
      return () => validateTrace(t, 'x.json');
    };
    expect(bad((t) => (t.schema = 'fencecheck.trace/0'))).toThrow(/schema must be "fencecheck.trace\/1"/);
    expect(bad((t) => (t.steps = []))).toThrow(/steps must be a non-empty array/);
    expect(bad((t) => ((t.steps as { state: { mode: string } }[])[2]!.state.mode = 'sideways'))).toThrow(/steps\[2\]\.state: mode/);
    expect(bad((t) => ((t.steps as { state: { oldLease: unknown } }[])[1]!.state.oldLease = 'p1'))).toThrow(/steps\[1\]\.state: oldLease/);
    expect(() => loadTrace('/nonexistent/trace.json')).toThrow(TraceFormatError);
  });
});

describe('step table', () => {
  it('marks exactly the variables each step changed and where the invariant breaks', () => {
    const t = stepTable(m1Trace());
    expect(t.columns.slice(0, 4)).toEqual(['p1', 'p2', 'p3', 'target']);
    expect([...t.rows[0]!.changed]).toEqual([]);
    expect([...t.rows[2]!.changed]).toEqual(['p1']);
    expect([...t.rows[7]!.changed].sort()).toEqual(['lastIssued', 'oldGen', 'oldLease']);
    expect([...t.rows[8]!.changed].sort()).toEqual(['lastIssued', 'newGen', 'newLease']);
    expect(t.rows[8]!.newlyBroken).toEqual(['Inv_SingleAuthority']);
    expect(firstBrokenStep(t)).toBe(M1_BREAK_STEP);
    const text = formatStepTable(m1Trace(), { color: false });
    expect(text.split('\n')[10]).toMatch(/^8\s+AcquireB\s+p1\s+B\s+A\s+A\s+B\s+p2\/1\s+\*p1\/2\*\s+1\s+\*2\*.*Inv_SingleAuthority$/);
    expect(formatStepTable(m1Trace(), { color: true })).toContain('\x1b[7mp1/2');
  });
});

describe('sequence diagram', () => {
  it('draws acquisitions to the keyspace they wrote and a note where two leases are live', () => {
    const d = sequenceDiagram(m1Trace());
    expect(d.participants.map((p) => p.id)).toEqual(['deploy', 'p1', 'p2', 'p3', 'old', 'new']);
    const msgs = d.items.filter((i) => i.kind === 'message');
    expect(msgs.find((m) => m.step === 7)).toMatchObject({ from: 'p2', to: 'old', label: 'AcquireA → lease p2/1' });
    expect(msgs.find((m) => m.step === 8)).toMatchObject({ from: 'p1', to: 'new', label: 'AcquireB → lease p1/2' });
    const alarm = d.items.find((i) => i.kind === 'note' && i.alarm);
    expect(alarm).toMatchObject({ step: 8, text: '✗ Inv_SingleAuthority: two live leases: old p2/1, new p1/2' });
  });

  it('renders as Mermaid text and as standalone SVG', () => {
    const mmd = traceMermaid(m1Trace());
    expect(mmd.split('\n')[0]).toBe('sequenceDiagram');
    expect(mmd).toContain('  p1->>new: 8. AcquireB → lease p1/2');
    expect(mmd).toContain('  Note over old,new: ✗ Inv_SingleAuthority');
    expect(mmd).not.toMatch(/;/);
    const svg = traceSvg(m1Trace(), 'm1');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<g class="message"/g)).toHaveLength(8);
    expect(svg).toContain('class="note alarm" data-step="8"');
    expect(svg).not.toMatch(/<script|href="http/);
  });
});

describe('fencecheck trace show', () => {
  it('prints the table, Mermaid and JSON; bad files exit 3, wrong usage 64', async () => {
    const file = tmpFile('m1.json', JSON.stringify(m1Trace()));
    const table = await cli(['trace', 'show', file]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/mutant=M1/);
    expect(table.stdout).toMatch(/\*p1\/2\*/);
    const mmd = await cli(['trace', 'show', file, '--mermaid']);
    expect(mmd.stdout.startsWith('sequenceDiagram')).toBe(true);
    const json = await cli(['trace', 'show', file, '--json']);
    const parsed = JSON.parse(json.stdout) as { steps: { changed: string[]; broken: string[] }[] };
    expect(parsed.steps[8]!.broken).toEqual(['Inv_SingleAuthority']);
    const broken = await cli(['trace', 'show', tmpFile('bad.json', '{"schema":"nope"}')]);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/schema must be/);
    expect((await cli(['trace', 'show'])).code).toBe(64);
    expect((await cli(['trace', 'explode', file])).code).toBe(64);
  });
});
