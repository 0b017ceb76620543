/**
 * The per-client phase projection the long run reports (drive/phase-coverage.ts): the model's phases
 * and one client's phase changes at the base config, and a collector that counts the changes of
 * each client across read-out samples (every client starts off; idle and closed are off).
 */
import { describe, expect, it } from 'vitest';
import { modelPhaseProjection, PhaseCollector } from '../../src/systems/init-limiter/drive/phase-coverage.js';
import type { ClientReadout, ClientsReadout, ServerPhase } from '../../src/systems/init-limiter/server/client-views.js';

const sample = (phases: Record<string, ServerPhase>): ClientsReadout => ({
  now: 0,
  version: 1,
  slotsInUse: 0,
  holders: [],
  queue: [],
  clients: Object.entries(phases).map(([client, phase]) => ({ client, phase }) as unknown as ClientReadout),
});

describe('per-client phase coverage', () => {
  it("the model's projection at the base config: 6 phases (no mutant's), 15 phase changes", () => {
    const m = modelPhaseProjection();
    expect([...m.phases].sort()).toEqual(['live', 'off', 'peeking', 'queued', 'sending', 'serializing']);
    expect(m.changes.size).toBe(15);
    expect(m.changes.has('sending→live')).toBe(true);
    expect(m.changes.has('live→sending')).toBe(false);
  });

  it('counts each client’s changes across samples, idle and closed as off', () => {
    const c = new PhaseCollector();
    c.add(sample({ h1: 'peeking', h2: 'sending' }));
    c.add(sample({ h1: 'live', h2: 'idle' }));
    c.add(sample({ h1: 'closed', h2: 'idle' }));
    expect([...c.changes].sort()).toEqual(['live→off', 'off→peeking', 'off→sending', 'peeking→live', 'sending→off']);
    const share = c.share(modelPhaseProjection());
    expect(share.line).toMatch(/^per-client phases 4\/6, phase changes 5\/15/);
  });
});
