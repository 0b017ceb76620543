// I18 Deadline_OnlyWhenEnabled (the other way): the stream endpoint built without the limiter's
// delivery writer, though the limiter is configured — as a stream provider never given the limiter
// (seed: "server-side stream provider gets WithInitLimiter"; the /flags stream "is not yet gated").
// Streams then run the base replay: no slot, no deadline, while polls share the budget; a herd of
// reconnecting streams serializes and sends unbounded.
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the stream endpoint not wired to the configured limiter',
  parts: { Deadline_OnlyWhenEnabled: () => false },
};
export default patch;
