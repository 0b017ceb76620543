/**
 * The action alphabet of a spec against its twin's events: the operators the spec's `Next` calls
 * (every identifier in its body that the module defines as an operator, `Name ==` or `Name(..) ==`)
 * against the twin's event types. A spec action the twin lacks, or an event the spec lacks, is a
 * parity failure.
 */
export interface AlphabetComparison {
  readonly equal: boolean;
  readonly spec: readonly string[];
  readonly onlySpec: readonly string[];
  readonly onlyModel: readonly string[];
}

/** The operators `Next` calls, in order of first mention; throws when the module has no Next. */
export function specActions(specText: string, where = 'spec'): string[] {
  const body = specText.replace(/\\\*.*$/gm, '').replace(/\(\*[\s\S]*?\*\)/g, '');
  const m = /^Next\s*==([\s\S]*?)(?=^\S)/m.exec(`${body}\n=`);
  if (!m) throw new Error(`${where}: no Next == definition found`);
  const defined = new Set([...body.matchAll(/^([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*==/gm)].map((x) => x[1]!));
  return [...new Set([...m[1]!.matchAll(/\b([A-Za-z_]\w*)\b/g)].map((x) => x[1]!).filter((n) => defined.has(n) && n !== 'Next'))];
}

export function compareAlphabet(spec: readonly string[], model: readonly string[]): AlphabetComparison {
  const onlySpec = spec.filter((a) => !model.includes(a));
  const onlyModel = model.filter((e) => !spec.includes(e));
  return { equal: onlySpec.length === 0 && onlyModel.length === 0, spec, onlySpec, onlyModel };
}
