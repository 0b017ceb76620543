/**
 * `f` computed once per argument object (held weakly): for a model's successors, which every
 * attempt of a state asks for — the tour's model graph calls `predict` once per attempt.
 */
export function memoPerObject<A extends object, R>(f: (a: A) => R): (a: A) => R {
  const seen = new WeakMap<A, R>();
  return (a) => {
    if (seen.has(a)) return seen.get(a) as R;
    const r = f(a);
    seen.set(a, r);
    return r;
  };
}
