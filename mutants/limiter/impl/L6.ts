// L6 limiter.client_resend: the client sends the script again when the connection dropped before
// the reply — a call that already ran runs twice.
import { OutcomeUnknownError } from '../../../src/valkey/index.js';
import type { LimiterPatch } from '../../../src/systems/limiter/patch.js';

const patch: LimiterPatch = {
  wrapCall: (call) => async (client, script, keys, args) => {
    try {
      return await call(client, script, keys, args);
    } catch (err) {
      if (!(err instanceof OutcomeUnknownError)) throw err;
      return call(client, script, keys, args);
    }
  },
};
export default patch;
