// `fencecheck systems`: the model layer of the systems on the seam against TLC's committed evidence.
import { createHash } from 'node:crypto';
import { indexedTextToEdges, linesSha256 } from '../../src/seam/tlc/graph.js';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { checkSystem, systemMutants } from '../../src/seam/check.js';
import { SYSTEMS, type AnySystem } from '../../src/registry/systems.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const temp: string[] = [];
afterAll(() => temp.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the spec folders and their evidence, to tamper with. */
function copyRoot(): string {
  const d = ownedTempDir('systems');
  temp.push(d);
  for (const part of ['tla', 'evidence']) cpSync(join(projectRoot, part), join(d, part), { recursive: true });
  return d;
}

describe('checkSystem', () => {
  for (const name of Object.keys(SYSTEMS)) {
    it(`${name}: every invariant holds, parity with TLC, every mutant killed as TLC kills it`, async () => {
      const c = await checkSystem(await SYSTEMS[name]!());
      expect(
        c.rows.filter((r) => r.status !== 'passed'),
        JSON.stringify(c.rows),
      ).toEqual([]);
      expect(c.status).toBe('passed');
      expect(c.distinct).toBe(c.tlc?.distinct);
      expect(c.generated).toBe(c.tlc?.generated);
    });
  }

  it('a spec changed since TLC ran: parity is not run, and the system is not passed', async () => {
    const root = copyRoot();
    appendFileSync(join(root, 'tla/pause/PauseSnapshot.tla'), '\n\\* edited\n');
    const c = await checkSystem(await SYSTEMS.pause!(), root);
    expect(c.rows.find((r) => r.check === 'parity with TLC')).toMatchObject({ status: 'not-run', detail: expect.stringMatching(/changed since TLC ran/) });
    expect(c.status).toBe('not-run');
  });

  it('a state list with one state changed (its hash forged too): parity fails', async () => {
    const root = copyRoot();
    const file = join(root, 'evidence/tlc/failover/base.states.txt');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // One state the twin never reaches (seven failovers), in place of the last: the record stays consistent, only the comparison with the twin can tell.
    lines[lines.length - 1] = lines[lines.length - 1]!.replace(/failovers=\d+$/, 'failovers=7');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const evFile = join(root, 'evidence/tlc/failover/base.json');
    const ev = JSON.parse(readFileSync(evFile, 'utf8')) as { states: { sha256: string }; edges: { file: string; canonicalSha256: string } };
    ev.states.sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    ev.edges.canonicalSha256 = linesSha256(indexedTextToEdges(readFileSync(join(root, ev.edges.file), 'utf8'), lines));
    writeFileSync(evFile, JSON.stringify(ev));
    const c = await checkSystem(await SYSTEMS.failover!(), root);
    expect(
      c.rows.find((r) => r.check === 'parity with TLC'),
      JSON.stringify(c.rows),
    ).toMatchObject({ status: 'failed' });
  });

  it('a mutant whose override changes nothing survives: failed, never killed', async () => {
    const base = await SYSTEMS.failover!();
    const inert: AnySystem = { ...base, withOverrides: () => base };
    const c = await checkSystem(inert);
    expect(c.rows.filter((r) => r.check.startsWith('mutant')).map((r) => [r.check, r.status])).toEqual([['mutant R1 (Acquire_WaitReplica) → Inv_Monotonic', 'failed']]);
    expect(c.status).toBe('failed');
  });

  it('takes the mutants from the manifest: P1–P6, P13 and P14 for pause, R1 for replication', async () => {
    expect(systemMutants('pause').map((m) => m.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P13', 'P14']);
    expect(systemMutants('failover').map((m) => m.id)).toEqual(['R1']);
  });

  it('a mutant without its TLC evidence is killed, but the comparison with TLC is not run', async () => {
    const root = copyRoot();
    rmSync(join(root, 'evidence/tlc/failover/R1.json'));
    const c = await checkSystem(await SYSTEMS.failover!(), root);
    expect(c.rows.find((r) => r.check.startsWith('mutant R1'))).toMatchObject({
      status: 'not-run',
      detail: 'killed after 4 states (no fresh TLC evidence to compare: no evidence evidence/tlc/failover/R1.json)',
    });
    expect(c.rows.filter((r) => r.status !== 'passed')).toHaveLength(1);
    expect(c.status).toBe('not-run');
  });

  it('TLC evidence of another trace length: the mutant row fails', async () => {
    const root = copyRoot();
    const file = join(root, 'evidence/tlc/failover/R1.json');
    writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), traceLength: 5 }));
    const c = await checkSystem(await SYSTEMS.failover!(), root);
    expect(c.rows.find((r) => r.check.startsWith('mutant R1'))).toMatchObject({ status: 'failed', detail: "killed after 4 states, TLC's trace has 5" });
  });

  it('a manifest patch that names a guard the machine lacks is a failed row, not a kill', async () => {
    const [r1] = systemMutants('failover');
    const bad = { ...r1!, layers: { model: { patch: 'test/mutants/fixtures/pause-unknown-guard.ts' } } };
    const c = await checkSystem(await SYSTEMS.failover!(), projectRoot, [bad]);
    expect(c.rows.at(-1)).toMatchObject({ status: 'failed', detail: expect.stringMatching(/invalid patch: .*the machine has no guard named Deliver_VersionChek/) });
  });
});
