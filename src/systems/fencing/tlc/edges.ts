import { canonicalKey, NONE, type FencingState, type Pod } from '../state.js';
import { sha256Text } from './config.js';
import { parseDotStateGraph } from '../../../tlc/dot.js';
import { TlcOutputError } from '../../../tlc/errors.js';
import { toFencingState } from './state.js';
import { parseTlaState } from '../../../core/tla-value.js';

/**
 * The labelled state graph of RedisClusterFencingMigration as canonical edges: one
 * `canonicalKey(from)|Action(p)|canonicalKey(to)` line per (state, action instance, successor) — the
 * form the XState exploration produces too (src/systems/fencing/model/explore.ts), so the two sets compare line by
 * line. Self-loops (Backfill once backfilled, ReverseMerge with oldGen >= newGen) are edges like any
 * other: TLC writes every successor it generates, including one equal to its predecessor.
 */

/** Actions of the spec with a pod parameter (`\E p \in Pods : AcquireB(p)`); every other one has none. */
export const POD_ACTIONS: ReadonlySet<string> = new Set(['AcquireO', 'AcquireA', 'AcquireB', 'AcquireC', 'MigrateB', 'UpgradePod', 'DowngradePod']);

/** The canonical edge line (the separator `|` occurs in no canonical key nor label). */
export function edgeLine(from: string, label: string, to: string): string {
  return `${from}|${label}|${to}`;
}

export function splitEdgeLine(line: string): { from: string; label: string; to: string } {
  const parts = line.split('|');
  if (parts.length !== 3) throw new Error(`not a canonical edge line: ${line.slice(0, 80)}`);
  return { from: parts[0]!, label: parts[1]!, to: parts[2]! };
}

export function isSelfLoop(line: string): boolean {
  const { from, to } = splitEdgeLine(line);
  return from === to;
}

/** SHA-256 of the sorted canonical edge lines, LF-terminated: the hash both sides can compute. */
export function canonicalEdgesSha256(sortedLines: readonly string[]): string {
  return sha256Text(sortedLines.length === 0 ? '' : `${sortedLines.join('\n')}\n`);
}

/**
 * Which pod acted in a step `prev --action--> next`, read off the state change alone, or why it cannot
 * be told. Unambiguous by construction of the spec: AcquireO/A(p) write `oldLease' = [owner |-> p, …]`
 * onto a free old key; AcquireB/C(p) write `newLease'` with owner p onto a free new key; MigrateB(p)
 * moves p's own old-key lease (`oldLease.owner = p`) to the new key; UpgradePod(p)/DowngradePod(p)
 * change `version[p]` and nothing else of `version` (and always change it). So two different pods
 * never produce the same (state, action, successor).
 */
export function podOfStep(action: string, prev: FencingState, next: FencingState): { pod: Pod } | { why: string } {
  const owner = (o: string, what: string): { pod: Pod } | { why: string } => (o === NONE ? { why: `${what} has no owner after ${action}` } : { pod: o as Pod });
  switch (action) {
    case 'AcquireO':
    case 'AcquireA':
      if (prev.oldLease.owner !== NONE) return { why: `${action} from a state whose old key is held by ${prev.oldLease.owner}` };
      return owner(next.oldLease.owner, 'the old key');
    case 'AcquireB':
    case 'AcquireC':
      if (prev.newLease.owner !== NONE) return { why: `${action} from a state whose new key is held by ${prev.newLease.owner}` };
      return owner(next.newLease.owner, 'the new key');
    case 'MigrateB': {
      const p = prev.oldLease.owner;
      if (p === NONE || next.newLease.owner !== p || next.oldLease.owner !== NONE) return { why: `MigrateB does not move one pod's old-key lease to the new key (old ${p}, new ${next.newLease.owner})` };
      return { pod: p };
    }
    case 'UpgradePod':
    case 'DowngradePod': {
      const changed = (Object.keys(next.version) as Pod[]).filter((p) => prev.version[p] !== next.version[p]);
      if (changed.length !== 1) return { why: `${action} changes the version of ${changed.length} pods (${changed.join(', ') || 'none'})` };
      return { pod: changed[0]! };
    }
    default:
      return { why: `${action} takes no pod` };
  }
}

/** Where the pod parameter of the per-pod edges came from. */
export type PodParameterSource = 'label+state-change' | 'state-change';

export interface FencingGraph {
  /** Sorted, de-duplicated canonicalKey() of every node. */
  readonly states: readonly string[];
  /** canonicalKey() of the initial states. */
  readonly initial: readonly string[];
  /** Sorted, de-duplicated canonical edge lines. */
  readonly edges: readonly string[];
  readonly selfLoops: number;
  /** Edge lines in the dot file (duplicates included): TLC's "states generated" minus the initial states. */
  readonly dotEdges: number;
  /**
   * `label+state-change`: TLC labelled every per-pod edge with its pod (`AcquireB(p2)`) and the pod
   * read off the state change agreed on each; `state-change`: some labels carried no argument (older
   * TLC releases print the bare action name) and the state change supplied it.
   */
  readonly podParameter: PodParameterSource;
}

const LABEL = /^([A-Za-z_]\w*)(?:\((.*)\))?$/;

/**
 * `-dump dot,actionlabels` of our spec → canonical states and labelled edges. Fails loudly
 * (TlcOutputError) on an edge without a label, a per-pod edge whose pod cannot be read off the state
 * change, or one whose label names another pod than the state change shows.
 */
export function dotToFencingGraph(text: string): FencingGraph {
  const g = parseDotStateGraph(text);
  const keys = new Map<string, string>();
  const states = new Map<string, FencingState>();
  for (const [fp, body] of g.nodes) {
    let s: FencingState;
    try {
      s = toFencingState(parseTlaState(body));
    } catch (err) {
      throw new TlcOutputError(`dot node ${fp}: ${(err as Error).message}`);
    }
    keys.set(fp, canonicalKey(s));
    states.set(fp, s);
  }
  const edges = new Set<string>();
  let fromLabelsOnly = true;
  let stuttering = 0;
  for (const e of g.edges) {
    if (e.stuttering) {
      stuttering++;
      continue;
    }
    const where = `dot edge ${e.from} -> ${e.to}`;
    if (e.label === undefined || e.label === '') throw new TlcOutputError(`${where} has no action label: run TLC with -dump dot,actionlabels`);
    const m = LABEL.exec(e.label);
    if (!m) throw new TlcOutputError(`${where}: cannot read the action label "${e.label}"`);
    const action = m[1]!;
    const args = m[2] === undefined || m[2] === '' ? [] : m[2].split(',').map((a) => a.trim());
    let label: string;
    if (POD_ACTIONS.has(action)) {
      if (args.length > 1) throw new TlcOutputError(`${where}: ${action} takes one pod, the label gives ${args.length} arguments`);
      const inferred = podOfStep(action, states.get(e.from)!, states.get(e.to)!);
      if ('why' in inferred) throw new TlcOutputError(`${where} (${e.label}): cannot tell which pod acted: ${inferred.why}`);
      if (args.length === 1 && args[0] !== inferred.pod) {
        throw new TlcOutputError(`${where}: TLC labels it ${e.label}, but the state change is ${action}(${inferred.pod})`);
      }
      if (args.length === 0) fromLabelsOnly = false;
      label = `${action}(${inferred.pod})`;
    } else {
      label = args.length === 0 ? action : `${action}(${args.join(',')})`;
    }
    edges.add(edgeLine(keys.get(e.from)!, label, keys.get(e.to)!));
  }
  const sorted = [...edges].sort();
  return {
    states: [...new Set(keys.values())].sort(),
    initial: [...new Set(g.initial.map((fp) => keys.get(fp)!))].sort(),
    edges: sorted,
    selfLoops: sorted.filter(isSelfLoop).length,
    dotEdges: g.edges.length - stuttering,
    podParameter: fromLabelsOnly ? 'label+state-change' : 'state-change',
  };
}

/**
 * The committed form of the edges (evidence/tlc/fencing/base.edges.txt): `FROM<TAB>Action(p)<TAB>TO` per
 * line, FROM and TO being 1-based line numbers in the sorted state list (base.states.txt), sorted by
 * FROM, then TO, then the label; LF-terminated.
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

/** The inverse: base.edges.txt back into sorted canonical edge lines. Throws Error naming the bad line. */
export function indexedTextToEdges(text: string, sortedStates: readonly string[], where = 'edge list'): string[] {
  if (text !== '' && !text.endsWith('\n')) throw new Error(`${where} does not end with a newline`);
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  const out = lines.map((line, i) => {
    const m = /^(\d+)\t([A-Za-z_]\w*(?:\([^)|]*\))?)\t(\d+)$/.exec(line);
    if (!m) throw new Error(`${where} line ${i + 1} is not FROM<TAB>Action<TAB>TO: ${line.slice(0, 60)}`);
    const f = sortedStates[Number(m[1]) - 1];
    const t = sortedStates[Number(m[3]) - 1];
    if (f === undefined || t === undefined || m[1]!.startsWith('0') || m[3]!.startsWith('0')) {
      throw new Error(`${where} line ${i + 1} names a state outside 1..${sortedStates.length}`);
    }
    return edgeLine(f, m[2]!, t);
  });
  const sorted = [...new Set(out)].sort();
  if (sorted.length !== out.length) throw new Error(`${where} lists an edge twice`);
  return sorted;
}
