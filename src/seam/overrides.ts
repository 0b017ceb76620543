/**
 * The one check of a model patch (mutants/fencing/model/**): an overrides object for `machine.provide()`
 * replaces only names the machine has, each by a function, and among them the manifest entry's
 * target. Fencing's loader (src/mutants/layers/model.ts) and every twin on the seam (twin.ts) use it,
 * so a patch that misnames its guard is `invalid` everywhere, never a silent no-op mutant.
 */

/** Per part of an overrides object (`guards`, `actions`), the names the machine has. */
export type OverridableNames = Readonly<Record<string, readonly string[]>>;

export class OverridesError extends Error {
  override readonly name = 'OverridesError';
}

/**
 * Checks `o` against the machine's names and returns the names it overrides; throws OverridesError
 * (`where` names the patch) for anything else, or when `target` is given and not among them.
 */
export function checkOverrides(o: unknown, known: OverridableNames, target: string | undefined, where: string, what = 'an overrides object'): string[] {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new OverridesError(`${where} must default-export ${what}`);
  const names: string[] = [];
  for (const [part, value] of Object.entries(o)) {
    const allowed = known[part];
    if (allowed === undefined) throw new OverridesError(`${where}: unknown part ${part} (the machine's overrides have ${Object.keys(known).join(', ')})`);
    if (value === undefined) continue;
    if (typeof value !== 'object' || value === null) throw new OverridesError(`${where}: ${part} must be an object`);
    for (const [k, v] of Object.entries(value)) {
      if (!allowed.includes(k)) throw new OverridesError(`${where}: the machine has no ${part.replace(/s$/, '')} named ${k}`);
      if (typeof v !== 'function') throw new OverridesError(`${where}: ${part}.${k} must be a function`);
      names.push(k);
    }
  }
  if (target !== undefined && !names.includes(target)) throw new OverridesError(`${where} does not override its target ${target} (overrides: ${names.join(', ') || 'nothing'})`);
  return names;
}
