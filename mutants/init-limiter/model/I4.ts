// I4 (the peek flight is keyed by one fixed key: a client at the current basis joins an older read and is sent a full basis): see mutants/manifest.json. The spec's Kept("Peek_KeyedByBasis") = FALSE branch, as tla/init-limiter/mutants/I4.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Peek_KeyedByBasis: () => false } };
export default overrides;
