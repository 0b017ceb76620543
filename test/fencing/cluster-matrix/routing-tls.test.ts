/**
 * The cluster matrix's routing row over TLS: the same relay families on a 3-shard cluster whose nodes serve
 * TLS (throwaway CA, client certificates required, the bus over TLS), the relay connecting to the TLS
 * ports only. Every redirect it meets raw names a TLS port, every node connection of its cluster
 * client is on a TLS port, and the results are right; the broken variants stay red over TLS too.
 */
import { expect, it } from 'vitest';
import { routingTlsRow } from '../../../src/systems/fencing/cluster-matrix/rows/routing.js';
import { rowStatus } from '../../../src/systems/fencing/cluster-matrix/types.js';
import { clusterForRows } from './support.js';

const fixture = clusterForRows({ tls: true });

it('over TLS: every family follows ASK and MOVED to TLS ports with right results as the ACL user', async () => {
  expect(fixture.topology().tls, 'the topology serves TLS').toBeDefined();
  expect(fixture.topology().nodes.every((n) => n.tlsPort !== undefined && n.tlsPort !== n.port)).toBe(true);
  const r = await routingTlsRow.run(fixture.ctx(), 'follow');
  expect(r.errors, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.silentlyWrong, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.figures.transport).toMatch(/^TLS/);
  expect(r.figures['MOVED seen raw']).toBe(r.figures.families);
  expect(r.figures['redirects seen raw']).toBeGreaterThanOrEqual(r.figures.families as number);
  expect(r.figures['ACL refusals clear']).toBe('3/3');
});

it('over TLS, broken: a client that does not follow redirects → errors (red)', async () => {
  await fixture.topology().flush();
  const r = await routingTlsRow.run(fixture.ctx(), 'no-follow');
  expect(rowStatus(r)).toBe('failed');
  expect((r.errors as { reason: string }).reason).toMatch(/ASK \d+|MOVED \d+/);
});

it('over TLS, broken: the ACL user lacks EVALSHA → a clear NOPERM (red)', async () => {
  await fixture.topology().flush();
  const r = await routingTlsRow.run(fixture.ctx(), 'acl-missing-evalsha');
  expect(rowStatus(r)).toBe('failed');
  expect((r.errors as { reason: string }).reason).toMatch(/NOPERM User relay has no permissions to run the 'evalsha' command/);
});
