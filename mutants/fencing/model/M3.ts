// M3 (AcquireB issues newGen+1 without the max-merge): the effect AcquireB_MaxMerge reads the new counter alone.
// The MaxGen bound follows (AcquireB_WithinMaxGen checks the generation this effect issues), as in the spec.
import { issueNew, podOf, type FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { actions: { AcquireB_MaxMerge: (s, ev) => issueNew(s, podOf(ev), s.newGen + 1) } };
export default overrides;
