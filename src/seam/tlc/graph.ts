/**
 * TLC's labelled state graph (`-dump dot,actionlabels`) of any system, in the system's own words:
 * every node through `fromTlc` and `key`, every generated successor as an edge line
 * `key(from)|label|key(to)`, the label as TLC printed it (`AcquireB(p2)`; `Next` where the spec's
 * action has no name of its own, an existential inside Next). The twin's side of the same graph is
 * `twinGraph`: its edges labelled by `label(e)` where the system says its labels are TLC's
 * (`tlcLabels`), else every edge as `key|*|key`, so that the two compare line for line.
 */
import { createHash } from 'node:crypto';
import { parseTlaState } from '../../core/tla-value.js';
import { parseDotStateGraph } from '../../tlc/dot.js';
import { parseStateDumpWith } from '../../tlc/dump.js';
import { TlcOutputError } from '../../tlc/errors.js';
import type { SystemExploration } from '../explore.js';
import type { ModelSystem } from '../system.js';

/** The label of an edge whose action the comparison does not look at. */
export const ANY_ACTION = '*';

export interface StateGraph {
  /** Sorted, de-duplicated canonical keys of every state. */
  readonly states: readonly string[];
  /** Sorted, de-duplicated edge lines `from|label|to`. */
  readonly edges: readonly string[];
  readonly selfLoops: number;
  /** Edges generated, duplicates included: TLC's "states generated" minus the initial states. */
  readonly generatedEdges: number;
  readonly initialStates: number;
}

export function edgeLine(from: string, label: string, to: string): string {
  return `${from}|${label}|${to}`;
}

export function splitEdgeLine(line: string): { from: string; label: string; to: string } {
  // Keys hold no `|`; a label may (a TLA+ set literal does not, but be safe: the middle is the rest).
  const a = line.indexOf('|');
  const b = line.lastIndexOf('|');
  if (a < 0 || a === b) throw new Error(`not an edge line: ${line.slice(0, 80)}`);
  return { from: line.slice(0, a), label: line.slice(a + 1, b), to: line.slice(b + 1) };
}

/** SHA-256 of sorted lines, LF-terminated: the hash both sides can compute. */
export function linesSha256(sorted: readonly string[]): string {
  return createHash('sha256')
    .update(sorted.length === 0 ? '' : `${sorted.join('\n')}\n`)
    .digest('hex');
}

/** TLC's dot dump read through the system's mapping. Throws TlcOutputError naming the node or edge. */
export function dotToGraph<S, E>(sys: ModelSystem<S, E>, dotText: string): StateGraph {
  const g = parseDotStateGraph(dotText);
  const keys = new Map<string, string>();
  for (const [fp, body] of g.nodes) {
    try {
      keys.set(fp, sys.key(sys.fromTlc(parseTlaState(body))));
    } catch (err) {
      throw new TlcOutputError(`dot node ${fp}: ${(err as Error).message}`);
    }
  }
  const edges = new Set<string>();
  let generated = 0;
  for (const e of g.edges) {
    if (e.stuttering) continue;
    generated += 1;
    if (sys.tlcLabels && (e.label === undefined || e.label === '')) throw new TlcOutputError(`dot edge ${e.from} -> ${e.to} has no action label: run TLC with -dump dot,actionlabels`);
    const label = sys.tlcLabels ? e.label!.replace(/,\s*/g, ', ') : ANY_ACTION;
    edges.add(edgeLine(keys.get(e.from)!, label, keys.get(e.to)!));
  }
  return graphOf([...new Set(keys.values())], [...edges], generated, g.initial.length);
}

/** The twin's graph, labelled as dotToGraph labels TLC's (the exploration must have recorded edges). */
export function twinGraph<S, E>(sys: ModelSystem<S, E>, run: SystemExploration<S, E>): StateGraph {
  if (!run.edges) throw new Error(`${sys.name}: explore with { edges: true } to compare edges`);
  const label = sys.tlcLabels ? (e: E) => sys.label(e).replace(/,\s*/g, ', ') : () => ANY_ACTION;
  const lines = new Set(run.edges.map((e) => edgeLine(run.keys[e.from]!, label(e.event), run.keys[e.to]!)));
  return graphOf(run.keys, [...lines], run.transitions, run.initial);
}

function graphOf(states: readonly string[], edges: readonly string[], generatedEdges: number, initialStates: number): StateGraph {
  const sorted = [...edges].sort();
  return {
    states: [...new Set(states)].sort(),
    edges: sorted,
    selfLoops: sorted.filter((l) => {
      const { from, to } = splitEdgeLine(l);
      return from === to;
    }).length,
    generatedEdges,
    initialStates,
  };
}

/**
 * The committed form of the edges (evidence/tlc/<system>/base.edges.txt): `FROM<TAB>label<TAB>TO` per
 * line, FROM and TO the 1-based line numbers of the states in base.states.txt; sorted by FROM, TO,
 * label; LF-terminated.
 */
export function edgesToIndexedText(edges: readonly string[], sortedStates: readonly string[]): string {
  const index = new Map(sortedStates.map((k, i) => [k, i + 1]));
  const rows = edges.map((line) => {
    const { from, label, to } = splitEdgeLine(line);
    const f = index.get(from);
    const t = index.get(to);
    if (f === undefined || t === undefined) throw new Error(`edge ${label} leaves the state list (${f === undefined ? from : to})`);
    return [f, label, t] as const;
  });
  rows.sort((a, b) => a[0] - b[0] || a[2] - b[2] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return rows.map((r) => `${r[0]}\t${r[1]}\t${r[2]}\n`).join('');
}

/** The inverse: base.edges.txt back into sorted edge lines. Throws Error naming the bad line. */
export function indexedTextToEdges(text: string, sortedStates: readonly string[], where = 'edge list'): string[] {
  if (text !== '' && !text.endsWith('\n')) throw new Error(`${where} does not end with a newline`);
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  const out = lines.map((line, i) => {
    const m = /^(\d+)\t([^\t]+)\t(\d+)$/.exec(line);
    if (!m) throw new Error(`${where} line ${i + 1} is not FROM<TAB>label<TAB>TO: ${line.slice(0, 60)}`);
    const f = sortedStates[Number(m[1]) - 1];
    const t = sortedStates[Number(m[3]) - 1];
    if (f === undefined || t === undefined || m[1]!.startsWith('0') || m[3]!.startsWith('0')) throw new Error(`${where} line ${i + 1} names a state outside 1..${sortedStates.length}`);
    return edgeLine(f, m[2]!, t);
  });
  const sorted = [...new Set(out)].sort();
  if (sorted.length !== out.length) throw new Error(`${where} lists an edge twice`);
  return sorted;
}

/** The sorted, de-duplicated canonical keys of a TLC `-dump` state list, read through the system's mapping. */
export function dumpToSystemKeys<S, E>(sys: ModelSystem<S, E>, dumpText: string): string[] {
  return [...new Set(parseStateDumpWith(dumpText, (v) => sys.key(sys.fromTlc(v))))].sort();
}
