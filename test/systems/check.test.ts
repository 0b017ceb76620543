// `fencecheck systems`: the model layer of the systems on the seam against TLC's committed evidence.
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { checkSystem } from '../../src/systems/check.js';
import { SYSTEMS, type AnySystem } from '../../src/systems/registry.js';

const temp: string[] = [];
afterAll(() => temp.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the spec folders and their evidence, to tamper with. */
function copyRoot(): string {
  const d = mkdtempSync(join(tmpdir(), 'fencecheck-systems-'));
  temp.push(d);
  for (const part of ['tla', 'evidence']) cpSync(join(projectRoot, part), join(d, part), { recursive: true });
  return d;
}

describe('checkSystem', () => {
  for (const name of Object.keys(SYSTEMS)) {
    it(`${name}: every invariant holds, parity with TLC, every mutant killed as TLC kills it`, async () => {
      const c = checkSystem(await SYSTEMS[name]!());
      expect(c.rows.filter((r) => r.status !== 'passed'), JSON.stringify(c.rows)).toEqual([]);
      expect(c.status).toBe('passed');
      expect(c.distinct).toBe(c.tlc?.distinct);
      expect(c.generated).toBe(c.tlc?.generated);
    });
  }

  it('a spec changed since TLC ran: parity is not run, and the system is not passed', async () => {
    const root = copyRoot();
    appendFileSync(join(root, 'tla/pause/PauseSnapshot.tla'), '\n\\* edited\n');
    const c = checkSystem(await SYSTEMS.pause!(), root);
    expect(c.rows.find((r) => r.check === 'parity with TLC')).toMatchObject({ status: 'not-run', detail: expect.stringMatching(/changed since TLC ran/) });
    expect(c.status).toBe('not-run');
  });

  it('a state list with one state dropped (hash forged too): parity fails', async () => {
    const root = copyRoot();
    const file = join(root, 'evidence/tlc/replication/base.states.txt');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    writeFileSync(file, `${lines.slice(1).join('\n')}\n`);
    const evFile = join(root, 'evidence/tlc/replication/base.json');
    const ev = JSON.parse(readFileSync(evFile, 'utf8')) as { states: { sha256: string } };
    ev.states.sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    writeFileSync(evFile, JSON.stringify(ev));
    const c = checkSystem(await SYSTEMS.replication!(), root);
    expect(c.rows.find((r) => r.check === 'parity with TLC')?.status).toBe('failed');
  });

  it('a mutant whose override changes nothing survives: failed, never killed', async () => {
    const base = await SYSTEMS.replication!();
    const inert: AnySystem = { ...base, withMutant: () => base };
    const c = checkSystem(inert);
    expect(c.rows.filter((r) => r.check.startsWith('mutant')).map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(c.status).toBe('failed');
  });
});
