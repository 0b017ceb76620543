import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { evidenceStatus, readBaseStateDump } from '../../src/tlc/evidence.js';
import { explore } from '../../src/model/explore.js';
import { sha256Text } from '../../src/tlc/config.js';
import { SPEC_FILE, checkParity, compareAlphabet, compareStateSets, parityTables, specActions } from '../../src/model/parity.js';
import { EVENT_TYPES } from '../../models/fencing/index.js';

const evidence = evidenceStatus();

describe('parity with the TLA+ spec', () => {
  it('compares state sets both ways and keeps the first differences sorted', () => {
    const c = compareStateSets(['a', 'b', 'd', 'c'], ['b', 'x', 'a'], 1);
    expect(c).toMatchObject({ equal: false, machineCount: 4, tlcCount: 3, onlyMachineCount: 2, onlyTlcCount: 1, onlyMachine: ['c'], onlyTlc: ['x'] });
    expect(compareStateSets(['a', 'b'], ['b', 'a']).equal).toBe(true);
  });

  it("finds every action of the spec's Next as one machine event, and no other", () => {
    const actions = specActions(readFileSync(join(projectRoot, SPEC_FILE), 'utf8'));
    expect([...actions].sort()).toEqual([...EVENT_TYPES].sort());
    expect(compareAlphabet(actions).equal).toBe(true);
    expect(compareAlphabet(['AcquireO', 'Teleport'], ['AcquireO', 'Enable'])).toEqual({ equal: false, onlySpec: ['Teleport'], onlyMachine: ['Enable'] });
  });

  it('lays every action beside its event and implementation, every invariant beside its checks', async () => {
    const t = await parityTables();
    expect(t.actions.map((r) => r.action.replace('(p)', ''))).toEqual([...EVENT_TYPES]);
    expect(t.actions.find((r) => r.action === 'AcquireB(p)')?.guards).toContain('AcquireB_OldLeaseFree');
    expect(t.invariants.every((r) => !r.tla.includes('not in spec'))).toBe(true);
    expect(t.guards.find((r) => r.guard === 'AdvanceToC_Gate')?.tla).toBe('named definition');
  });

  it.skipIf(!evidence.ok)(`reaches exactly the states in TLC's dump${evidence.ok ? '' : ` (skipped: ${evidence.reason})`}`, () => {
    const dump = readBaseStateDump();
    const run = explore({ bounds: dump.bounds });
    const c = compareStateSets(run.states.keys(), dump.states);
    expect(c.onlyMachine).toEqual([]);
    expect(c.onlyTlc).toEqual([]);
    expect(run.distinct).toBe(dump.distinct);
    expect(run.generated).toBe(dump.generated);
  });
});

describe('parity outcomes on a scratch checkout', () => {
  const scratch = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'fencecheck-parity-'));
    mkdirSync(join(root, 'tla'));
    for (const f of [SPEC_FILE, 'tla/RedisClusterFencingMigration.cfg']) copyFileSync(join(projectRoot, f), join(root, f));
    return root;
  };

  it('is not run, never passed, when the TLC evidence is missing', () => {
    const root = scratch();
    try {
      const r = checkParity(root);
      expect(r.status).toBe('not-run');
      expect(r.reason).toMatch(/^no TLC evidence/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it.skipIf(!evidence.ok)('fails and names the differing states when the sets differ', () => {
    const root = scratch();
    try {
      mkdirSync(join(root, 'evidence/tlc'), { recursive: true });
      const real = readBaseStateDump();
      // TLC "reaches" one state the machine does not, and misses one it does.
      const forged = 'version=p1:C,p2:O,p3:O;target=O;oldLease=None/0;newLease=None/0;oldGen=0;newGen=0;backfilled=F;mode=disabled;lastIssued=0;monoOk=T';
      const dropped = real.states[0]!;
      const states = [...real.states.slice(1), forged].sort();
      const text = `${states.join('\n')}\n`;
      writeFileSync(join(root, 'evidence/tlc/base.states.txt'), text);
      const meta = JSON.parse(readFileSync(join(projectRoot, 'evidence/tlc/base.json'), 'utf8')) as Record<string, unknown>;
      const statesMeta = meta.states as Record<string, unknown>;
      writeFileSync(join(root, 'evidence/tlc/base.json'), JSON.stringify({ ...meta, states: { ...statesMeta, sha256: sha256Text(text), count: states.length } }));
      const r = checkParity(root);
      expect(r.status).toBe('failed');
      expect(r.sets).toMatchObject({ onlyMachine: [dropped], onlyTlc: [forged], onlyMachineCount: 1, onlyTlcCount: 1 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
