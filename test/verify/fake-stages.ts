/**
 * Stand-in stage objects for the orchestrator's tests: each is a real child process
 * (fixtures/fake-stage.mjs) that behaves as `behaviour` says. verify starts it where it would start
 * `fencecheck stage NAME …`: the command hook swaps the entry for the fake, keeping the options verify
 * hands the stage (`--shard`, `--serve-report`, `--json`).
 */
import { resolve } from 'node:path';
import type { Stage, StageOption, StageTraits } from '../../src/core/stage.js';

export const FAKE = resolve(import.meta.dirname, 'fixtures/fake-stage.mjs');

export function fakeStage(name: string, behaviour: readonly string[], traits: Partial<StageTraits> & { takes?: readonly StageOption[] } = {}): Stage {
  const stage: Stage & { readonly behaviour: readonly string[] } = {
    name,
    // On the object itself: a test may spread it into a variant (`{ ...spec, recordsTraces: true }`).
    behaviour,
    what: `fake ${behaviour[0]}`,
    heavy: true,
    takes: [],
    ...traits,
    run: () => Promise.reject(new Error('a fake stage runs only as its process')),
  };
  return stage;
}

/** verify's command hook: the fake process with the stage's behaviour, then what verify passed after `stage NAME`. */
export function fakeCommand(stage: Stage, argv: readonly string[]): readonly [string, ...string[]] {
  const behaviour = (stage as { behaviour?: readonly string[] }).behaviour;
  if (!behaviour) throw new Error(`${stage.name} is not a fake stage`);
  return [process.execPath, FAKE, ...behaviour, ...argv.slice(2)];
}
