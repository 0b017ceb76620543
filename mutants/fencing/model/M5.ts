// M5 (AcquireA drops the union max-merge read): the effect AcquireA_MaxMerge reads the old counter alone.
// The MaxGen bound follows (AcquireA_WithinMaxGen checks the generation this effect issues), as in the spec.
import { issueOld, podOf, type FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { actions: { AcquireA_MaxMerge: (s, ev) => issueOld(s, podOf(ev), s.oldGen + 1) } };
export default overrides;
