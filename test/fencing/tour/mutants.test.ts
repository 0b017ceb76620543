/**
 * The conformance tour against changed implementations: small realistic bugs are each reported by
 * the check that should catch them, equivalence and survival are told apart, and M1–M9 are killed
 * in their real graphs with the same counterexample lengths TLC found.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { runConform } from '../../../src/systems/fencing/tour/run.js';
import { useTourRig, WHOLE_TOURS_MS } from './rig.js';
import { DEFAULT_BOUNDS } from '../../../src/systems/fencing/state.js';
import type { rewriteLine, ImplPatch } from '../../../src/systems/fencing/patch.js';
import type { InvariantName } from '../../../src/systems/fencing/invariants.js';
import { loadManifest, mutantsFor } from '../../../src/core/manifest.js';
import { loadPatch } from '../../../src/systems/fencing/impl-runner.js';

const tourRig = useTourRig();

const evidence = (name: string) => JSON.parse(readFileSync(resolve(projectRoot, `evidence/tlc/fencing/${name}.json`), 'utf8')) as { distinct: number; traceLength?: number; violated?: string };

describe('the conformance tour against changed implementations', () => {
  // Small, realistic bugs and the check that must report each (the closing note lists them).
  const lua = (script: Parameters<typeof rewriteLine>[0], from: string, to: string): ImplPatch => ({
    lua: (name, source) =>
      name === script
        ? source.includes(from)
          ? source.replace(from, to)
          : (() => {
              throw new Error(`'${from}' not in ${script}`);
            })()
        : source,
  });
  const bugs: { name: string; patch: ImplPatch; check: string; attempt?: RegExp }[] = [
    { name: 'B renews the old key instead of the new one', patch: lua('B/renew', "redis.call('PEXPIRE', KEYS[2], ttl)", "redis.call('PEXPIRE', KEYS[1], ttl)"), check: 'TTL', attempt: /^renew/ },
    { name: 'C writes its lease without a TTL', patch: lua('C/acquire', ", 'PX', ttl)", ')'), check: 'TTL', attempt: /^acquire/ },
    { name: 'A writes the generation counter with a TTL', patch: lua('A/acquire', "redis.call('SET', KEYS[2], g)", "redis.call('SET', KEYS[2], g, 'PX', ttl)"), check: 'TTL', attempt: /^acquire/ },
    { name: 'O releases without the owner check', patch: lua('O/release', 'if not fc_is(oldLease, owner, gen) then', 'if not oldLease then'), check: 'Conformance', attempt: /^release/ },
    {
      name: 'A releases checking the owner but not the generation',
      patch: lua('A/release', 'if not fc_is(oldLease, owner, gen) then', 'if not (oldLease and oldLease.owner == owner) then'),
      check: 'Conformance',
      attempt: /^release/,
    },
    { name: 'C renews without the owner check', patch: lua('C/renew', 'if not fc_is(newLease, owner, gen) then', 'if not newLease then'), check: 'Conformance', attempt: /^renew/ },
    {
      name: 'the shared prelude validates without the owner check',
      patch: lua('lib/prelude', "if lease.owner ~= owner or lease.gen ~= gen then return { 0, 'not-owner' } end", "if lease.gen ~= gen then return { 0, 'not-owner' } end"),
      check: 'ReadSide',
    },
    {
      name: 'the C-gate counts only the backfill record, not the old-lease census (a part of a gate rule)',
      patch: { gateRules: (rules) => rules.map((r) => (r.name === 'AdvanceToC_Gate' ? { ...r, check: (o) => (o.target === 'B' && !o.backfilled ? 'no backfill' : null) } : r)) },
      check: 'Conformance',
      attempt: /^AdvanceTarget$/,
    },
    { name: 'the backfill record reads true before any backfill ran (the deploy records)', patch: { observations: (o) => ({ ...o, backfilled: true }) }, check: 'Conformance' },
  ];
  it.each(bugs)('reports a small bug: $name', async ({ patch, check, attempt }) => {
    const { result: r } = await runConform({ bounds: DEFAULT_BOUNDS, rig: tourRig(), patch, saveTrace: false });
    expect(r.failure?.check, r.failure?.message).toBe(check);
    if (attempt) expect(r.failure?.attempt).toMatch(attempt);
    expect(r.failure!.path[0]!.attempt).toBeNull();
  });

  it(
    'a patch that changes nothing the real system does is equivalent; one that changes the graph but not the invariant survives',
    async () => {
      const same = await runConform({
        bounds: DEFAULT_BOUNDS,
        rig: tourRig(),
        invariant: 'Inv_SingleAuthority',
        patch: lua('B/acquire', '-- guard AcquireB_OldLeaseFree', '-- (reworded comment)'),
        saveTrace: false,
      });
      expect(same.result.failure).toBeNull();
      expect(same.result.equalToModel).toBe(true);
      // A gate that never opens the one-way door: fewer states, and none of them unsafe.
      const noEnable: ImplPatch = { gateRules: (rules) => [...rules, { name: 'Enable_Never', step: 'Enable', check: () => 'closed' }] };
      const other = await runConform({ bounds: DEFAULT_BOUNDS, rig: tourRig(), invariant: 'Inv_SlotRulesSafe', patch: noEnable, saveTrace: false });
      expect(other.result.failure).toBeNull();
      expect(other.result.equalToModel).toBe(false);
      expect(other.result.states).toBeLessThan(4117);
    },
    WHOLE_TOURS_MS,
  );

  it(
    'M1–M9: each killed in its real graph by its expected invariant, with the counterexample length TLC found',
    async () => {
      const rows: [string, string | undefined, number | undefined][] = [];
      const want: [string, string | undefined, number | undefined][] = [];
      for (const m of mutantsFor(loadManifest(), 'impl', 'fencing')) {
        const { result: r } = await runConform({ bounds: DEFAULT_BOUNDS, rig: tourRig(), invariant: m.expectedInvariant as InvariantName, patch: await loadPatch(m), saveTrace: false });
        rows.push([m.id, r.failure?.check, r.failure?.path.length]);
        want.push([m.id, m.expectedInvariant, evidence(m.id).traceLength]);
      }
      expect(rows).toEqual(want);
    },
    WHOLE_TOURS_MS,
  );
});
