/**
 * JUnit: one case per mutant × layer with the layer in its name (CI tools key on names), every
 * failure body ending in the one command that reproduces it, and the mutation score on the
 * mutants suite.
 */
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../src/report/junit.js';
import { fixtureReport, fullReport, M1_TRACE_PATH } from './fixtures.js';

/** Each testcase as { classname, name, body of its failure/error (or null) }. */
function cases(xml: string): { classname: string; name: string; failure: string | null }[] {
  const out: { classname: string; name: string; failure: string | null }[] = [];
  for (const m of xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const inner = m[4] ?? '';
    const f = /<(failure|error) message="[^"]*"(?:\/>|>([\s\S]*?)<\/\1>)/.exec(inner);
    out.push({ classname: m[1]!, name: m[2]!, failure: f ? (f[2] ?? '') : null });
  }
  return out;
}

describe('JUnit mutant cases', () => {
  it('names are unique across layers: the layer is in the name, not only in the classname', () => {
    const { report } = fullReport();
    const names = cases(junitXml(report))
      .filter((c) => c.classname.startsWith('fencecheck.mutants.'))
      .map((c) => c.name);
    // M1–M9, P1–P6 and R1 at tla, model and impl; L1–L6 at the limiter.
    expect(names).toHaveLength(16 * 3 + 6);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('M3 [impl] AcquireB_MaxMerge -&gt; Inv_Monotonic');
    expect(names).toContain('L2 [impl] limiter.refund_first_on_second_deny -&gt; limiter.transition_table');
    expect(names).toContain('R1 [model] Acquire_WaitReplica -&gt; Inv_Monotonic');
    // Unique across the whole file too: a stage case never shares a name with a mutant's.
    const all = cases(junitXml(fixtureReport())).map((c) => `${c.name}`);
    expect(new Set(all).size).toBe(all.length);
  });

  it('every failure and error body carries exactly one replay command', () => {
    const r = fixtureReport();
    const failing = cases(junitXml(r)).filter((c) => c.failure !== null);
    expect(failing.length).toBeGreaterThan(2);
    for (const c of failing) expect({ name: c.name, replays: c.failure!.match(/^replay: fencecheck .+$/gm)?.length ?? 0 }).toEqual({ name: c.name, replays: 1 });
    const m3 = failing.find((c) => c.name.startsWith('M3 [model]'))!;
    expect(m3.failure).toBe('survived\nreason: exploration finished with every invariant holding\nreplay: fencecheck mutants --layer model --only M3');
    // A crashed stage reruns its own command; a failed stage with a trace, the trace.
    expect(failing.find((c) => c.name === 'props')!.failure).toMatch(/\nreplay: fencecheck props$/);
  });

  it('the replay is the trace when there is one, the seed and path with the patch for the limiter', () => {
    const { report } = fullReport();
    const broken = {
      ...report,
      mutationMatrix: {
        ...report.mutationMatrix,
        rows: report.mutationMatrix.rows.map((row) => ({
          ...row,
          cells: Object.fromEntries(Object.entries(row.cells).map(([l, c]) => [l, c.verdict === 'killed' ? { ...c, verdict: 'wrong-invariant' as const } : c])) as typeof row.cells,
        })),
      },
    };
    const failing = cases(junitXml(broken)).filter((c) => c.failure !== null);
    expect(failing.find((c) => c.name.startsWith('M1 [model]'))!.failure).toMatch(/\nreplay: fencecheck trace replay reports\/traces\/model-M1\.json$/);
    expect(failing.find((c) => c.name.startsWith('M1 [tla]'))!.failure).toMatch(/\nreplay: fencecheck trace replay evidence\/tlc\/fencing\/tla-M1\.json$/);
    expect(failing.find((c) => c.name.startsWith('L2 [impl]'))!.failure).toMatch(
      /\nreplay: fencecheck limiter --topology standalone --no-invariants --patch mutants\/limiter\/impl\/L2\.ts --seed=-27 --path=10:3:1$/,
    );
  });

  it('the mutants suite carries the mutation score per layer and overall, never counting a not-run cell as killed', () => {
    const xml = junitXml(fixtureReport());
    const suite = /<testsuite name="fencecheck.mutants"[^>]*>\n    <properties>\n([\s\S]*?)    <\/properties>\n[\s\S]*?<system-out>([^<]*)<\/system-out>\n  <\/testsuite>/.exec(xml);
    expect(suite).not.toBeNull();
    const props = Object.fromEntries([...suite![1]!.matchAll(/<property name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]));
    // model: 15 of 16 killed; tla: TLC not run here (16 not run); impl, limiter not selected.
    expect(props).toMatchObject({
      'mutation-score.model': '93.7',
      'mutation-score.model.killed': '15',
      'mutation-score.model.not-run': '0',
      'mutation-score.tla': '0.0',
      'mutation-score.tla.not-run': '16',
    });
    expect(props['mutation-score.overall']).toBe('27.7');
    expect(suite![2]).toContain('mutation score model: 93.7 % (15/16 killed)');
    expect(suite![2]).toContain('mutation score overall: 27.7 % (15/54 killed, 38 not run)');
  });

  it('a killed cell with a trace names it and its replay in system-out', () => {
    expect(junitXml(fixtureReport())).toContain(`<system-out>killed: Inv_SingleAuthority\ntrace: ${M1_TRACE_PATH}\nreplay: fencecheck trace replay ${M1_TRACE_PATH}</system-out>`);
  });
});
