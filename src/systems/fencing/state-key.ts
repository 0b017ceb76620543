/**
 * Fencing's keys for the seam's exploration (src/seam/explore.ts): canonicalKey, faster, and a packed
 * integer the exploration looks up first. Building the ~150-char key and hashing it for each of the
 * 610k transitions at Pods=6/MaxGen=6 cost about 2 µs each; a state whose fields are all in range for
 * the bounds also packs into one integer (a mixed-radix number, below 2^53). The packed number is only a
 * cache in front of the key: equal packs imply equal keys (each digit determines its field's text in the
 * key), and a miss falls back to the key itself, so a state that does not pack (a mutant's out-of-range
 * value) still meets its twin.
 */
import { canonicalKey, comparePods, MODES, NONE, PHASES, type FencingBounds, type FencingState, type Pod } from './state.js';

/**
 * canonicalKey(s), faster: the pods sorted once for the bounds instead of per call. A state whose
 * pods are not exactly the bounds' goes through canonicalKey itself, so the result is always its string.
 */
export function keyerFor(bounds: FencingBounds): (s: FencingState) => string {
  const pods = [...bounds.pods].sort(comparePods);
  return (s) => {
    const v = s.version as Readonly<Record<string, string | undefined>>;
    let n = 0;
    for (const _ in v) n++;
    if (n !== pods.length) return canonicalKey(s);
    let version = '';
    for (let i = 0; i < pods.length; i++) {
      const p = pods[i] as Pod;
      const ph = v[p];
      if (ph === undefined) return canonicalKey(s);
      version += i === 0 ? `${p}:${ph}` : `,${p}:${ph}`;
    }
    const o = s.oldLease;
    const w = s.newLease;
    return `version=${version};target=${s.target};oldLease=${o.owner}/${o.gen};newLease=${w.owner}/${w.gen};oldGen=${s.oldGen};newGen=${s.newGen};backfilled=${s.backfilled ? 'T' : 'F'};mode=${s.mode};lastIssued=${s.lastIssued};monoOk=${s.monoOk ? 'T' : 'F'}`;
  };
}

/** The state as one integer when every field is in range for the bounds, else undefined. */
export function packerFor(bounds: FencingBounds): ((s: FencingState) => number | undefined) | null {
  const pods = [...bounds.pods];
  const gens = bounds.maxGen + 1; // 0..MaxGen
  const owners = pods.length + 1; // None, p1..pN
  // Radix product must stay an exact integer in a double.
  const size = PHASES.length ** (pods.length + 1) * (owners * gens) ** 2 * gens ** 3 * 2 * MODES.length * 2;
  if (!Number.isSafeInteger(size)) return null;
  const phase = digitOf(PHASES);
  const mode = digitOf(MODES);
  const owner = digitOf([NONE, ...pods]);
  const gen = (g: unknown): number => (typeof g === 'number' && Number.isInteger(g) && g >= 0 && g < gens ? g : -1);
  // Most successors keep their predecessor's `version` object (only Upgrade/DowngradePod replace
  // it), so its digits are remembered for the last object seen. Contexts are never mutated in place.
  let lastVersion: object | undefined;
  let lastDigits = 0;
  const versionDigits = (v: Readonly<Record<string, unknown>>): number => {
    if (v === lastVersion) return lastDigits;
    let n = 0;
    for (const _ in v) n++;
    if (n !== pods.length) return -1;
    let x = 0;
    for (let i = 0; i < pods.length; i++) {
      const d = phase(v[pods[i]!]);
      if (d < 0) return -1;
      x = x * PHASES.length + d;
    }
    lastVersion = v;
    lastDigits = x;
    return x;
  };
  return (s) => {
    let x = versionDigits(s.version as Readonly<Record<string, unknown>>);
    if (x < 0) return undefined;
    const t = phase(s.target);
    const oo = owner(s.oldLease.owner);
    const og = gen(s.oldLease.gen);
    const no = owner(s.newLease.owner);
    const ng = gen(s.newLease.gen);
    const a = gen(s.oldGen);
    const b = gen(s.newGen);
    const m = mode(s.mode);
    const li = gen(s.lastIssued);
    if ((t | oo | og | no | ng | a | b | m | li) < 0) return undefined;
    x = ((x * PHASES.length + t) * owners + oo) * gens + og;
    x = ((x * owners + no) * gens + ng) * gens + a;
    x = ((((x * gens + b) * 2 + (s.backfilled ? 1 : 0)) * MODES.length + m) * gens + li) * 2 + (s.monoOk ? 1 : 0);
    return x;
  };
}

/** Position of a value in a short list of strings (-1 if absent): a scan beats a Map for 3–10 entries. */
function digitOf(values: readonly string[]): (v: unknown) => number {
  return (v) => {
    for (let i = 0; i < values.length; i++) if (values[i] === v) return i;
    return -1;
  };
}
