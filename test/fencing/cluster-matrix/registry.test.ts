/**
 * The cluster matrix's registry row on a real 3-shard cluster: the scored-expiry index passes both columns; the SCAN
 * design (the relay's scan_ready) raises no error and is silently partial; an index read path that
 * skips attestation returns forged records. Each broken variant turns the row red.
 */
import { expect, it } from 'vitest';
import { registryRow } from '../../../src/systems/fencing/cluster-matrix/rows/registry.js';
import { rowStatus } from '../../../src/systems/fencing/cluster-matrix/types.js';
import { clusterForRows } from './support.js';

const fixture = clusterForRows();

it('the index design: every live runtime found, nothing expired or unattested returned, no error', async () => {
  const r = await registryRow.run(fixture.ctx(), 'index');
  expect(r.errors, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.silentlyWrong, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.figures['index completeness min %']).toBe(100);
  // The negative control: SCAN through the cluster client is partial and varies, with no error.
  expect(r.figures['scan control completeness mean %']).toBeLessThan(80);
  expect(r.figures['scan control distinct result sets']).toBeGreaterThan(1);
});

it('broken: SCAN discovery where the index is required → no error, silently wrong (red)', async () => {
  await fixture.topology().flush();
  const r = await registryRow.run(fixture.ctx(), 'scan');
  expect(r.errors).toEqual({ status: 'passed' });
  expect(r.silentlyWrong.status).toBe('failed');
  expect(rowStatus(r)).toBe('failed');
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/missed live runtime/);
});

it('broken: the index read path without attestation → forged records returned (red)', async () => {
  await fixture.topology().flush();
  const r = await registryRow.run(fixture.ctx(), 'index-no-attest');
  expect(r.silentlyWrong.status).toBe('failed');
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/not attested/);
});
