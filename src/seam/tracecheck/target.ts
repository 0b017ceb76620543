/**
 * What trace validation needs to know about one system's spec: where it is, its variables, its base
 * config, and what its implementation does without logging it. A system declares the last part in
 * its package (SystemEntry.traceValidation); the rest is its ModelSystem's.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { projectRoot } from '../../core/project-root.js';
import { ObservedTraceError } from './format.js';

/** The system's part: what its real code does between log lines, and the domains of its actions' parameters. */
export interface TraceValidation {
  /**
   * Actions of the spec that happen without a log line (asynchronous replication): TLA+ action
   * formulas, each allowed between any two lines, any number of times.
   */
  readonly silent?: readonly string[];
  /**
   * Per action, each parameter's domain as TLA+ over the state before the step (`Replicas`,
   * `pending`, `chan[r]` is not possible: a domain is closed), for a claimed argument left unobserved.
   */
  readonly domains?: Readonly<Record<string, readonly (string | null)[]>>;
}

export interface TraceTarget extends TraceValidation {
  readonly system: string;
  /** Repository-relative (or absolute) paths of the spec and its base config. */
  readonly spec: string;
  readonly config: string;
  readonly variables: readonly string[];
}

/** The mutation constant of every spec of the project: the guards a mutant drops. Trace validation judges the real spec: {}. */
export const MUTATION_CONSTANT = 'Dropped';

export interface SpecFacts {
  /** The module's name (its file's). */
  readonly module: string;
  readonly init: string;
  readonly next: string;
  /** Names the spec defines or declares at the top level (for clash checks). */
  readonly names: ReadonlySet<string>;
  /** The base config's constant lines, by name: the TLA+ text after `=` (or `<-`). */
  readonly constants: ReadonlyMap<string, { readonly op: '=' | '<-'; readonly value: string }>;
  /** Model values the base config's constants introduce (`Pods = {p1, p2}` → p1, p2; `None = None` → None). */
  readonly modelValues: ReadonlySet<string>;
}

const strip = (text: string) => text.replace(/\(\*[\s\S]*?\*\)/g, ' ').replace(/\\\*.*$/gm, '');

const CFG_KEYWORDS = /^(SPECIFICATION|INIT|NEXT|INVARIANTS?|PROPERTY|PROPERTIES|SYMMETRY|CONSTRAINTS?|ACTION_CONSTRAINTS?|VIEW|CHECK_DEADLOCK|POSTCONDITION|ALIAS|CONSTANTS?)\b/;

/** The constants of a TLC config (`CONSTANT(S)` sections), in order. */
export function cfgConstants(cfg: string, where: string): Map<string, { op: '=' | '<-'; value: string }> {
  const out = new Map<string, { op: '=' | '<-'; value: string }>();
  let inConstants = false;
  for (const raw of strip(cfg).split('\n')) {
    let line = raw.trim();
    if (line === '') continue;
    const kw = CFG_KEYWORDS.exec(line);
    if (kw) {
      inConstants = kw[1]!.startsWith('CONSTANT');
      line = line.slice(kw[0].length).trim();
      if (line === '') continue;
    }
    if (!inConstants) continue;
    const m = /^([A-Za-z_]\w*)\s*(=|<-)\s*(.+)$/.exec(line);
    if (!m) throw new ObservedTraceError(`${where}: cannot read the constant line "${line.slice(0, 60)}"`);
    out.set(m[1]!, { op: m[2] as '=' | '<-', value: m[3]!.trim() });
  }
  return out;
}

const IDENT_G = /[A-Za-z_][A-Za-z0-9_]*/g;
const NOT_MODEL_VALUE = new Set(['TRUE', 'FALSE']);

/** The spec's facts, from its text and its base config. */
export function specFacts(target: TraceTarget, root = projectRoot): SpecFacts {
  const path = (p: string) => (isAbsolute(p) ? p : join(root, p));
  const spec = strip(readFileSync(path(target.spec), 'utf8'));
  const cfgText = readFileSync(path(target.config), 'utf8');
  const module = /^-{4,}\s*MODULE\s+(\w+)/m.exec(spec)?.[1];
  if (!module) throw new ObservedTraceError(`${target.spec}: no MODULE header`);
  const specName = /^\s*SPECIFICATION\s+(\w+)/m.exec(strip(cfgText))?.[1];
  let init = /^\s*INIT\s+(\w+)/m.exec(strip(cfgText))?.[1] ?? 'Init';
  let next = /^\s*NEXT\s+(\w+)/m.exec(strip(cfgText))?.[1] ?? 'Next';
  if (specName) {
    const def = new RegExp(`^${specName}\\s*==\\s*(\\w+)\\s*/\\\\\\s*\\[\\]\\[\\s*(\\w+)\\s*\\]_`, 'm').exec(spec);
    if (!def) throw new ObservedTraceError(`${target.spec}: ${specName} is not of the form Init /\\ [][Next]_vars`);
    [init, next] = [def[1]!, def[2]!];
  }
  const names = new Set<string>();
  for (const m of spec.matchAll(/^([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*==/gm)) names.add(m[1]!);
  for (const v of target.variables) names.add(v);
  const constants = cfgConstants(cfgText, target.config);
  for (const c of constants.keys()) names.add(c);
  const modelValues = new Set<string>();
  for (const [name, c] of constants) {
    if (c.op !== '=') continue;
    const text = c.value.replace(/"[^"]*"/g, '');
    for (const id of text.match(IDENT_G) ?? []) if (!NOT_MODEL_VALUE.has(id) && !/^\d/.test(id) && (id === name || !constants.has(id))) modelValues.add(id);
  }
  return { module, init, next, names, constants, modelValues };
}
