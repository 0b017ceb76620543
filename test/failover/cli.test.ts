/**
 * `fencecheck replication`'s bad input: each is a UsageError (exit 64 through main), before any
 * topology starts. (The command is run in-process: its registry line belongs to src/cli/registry.ts.)
 */
import { expect, it } from 'vitest';
import { command } from '../../src/systems/fencing/commands/failover.js';
import { UsageError } from '../../src/core/args.js';

it.each([
  [['--variant', 'nope'], /unknown variant 'nope' \(variants: wait, none, wait0\)/],
  [['--wait-timeout-ms', '0'], /--wait-timeout-ms takes an integer from 1 to 5000, got "0"/],
  [['--wait-timeout-ms', 'x'], /--wait-timeout-ms takes an integer/],
  [['--cut-ms', '99999'], /--cut-ms takes an integer from 0 to 5000, got "99999"/],
  [['--cut-ms=-1'], /--cut-ms takes an integer from 0 to 5000, got "-1"/],
  [['--provider', 'x'], /unknown provider 'x'/],
  [['--bogus'], /Unknown option '--bogus'/],
  [['extra'], /positional/i],
])('usage %j → UsageError', async (args, message) => {
  const err = await command.run(args).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  expect((err as Error).message).toMatch(message);
});
