import { TlcOutputError } from './errors.js';

/**
 * TLC's state graph in dot format (`-dump dot,actionlabels FILE`, tlc2.util.DotStateWriter): every
 * distinct state as a node keyed by its fingerprint, every generated successor as an edge
 * `FROM -> TO [label="Action(args)",…];`. One statement per line (TLC escapes `\`, `"` and newlines
 * inside labels). This module reads the graph only; what the states and labels mean for our spec is
 * each system's own mapping, through src/seam/tlc/graph.ts.
 */
export interface DotEdge {
  readonly from: string;
  readonly to: string;
  /** The edge's `label` attribute (the action's invocation signature with `actionlabels`). */
  readonly label?: string;
  /** A dashed liveness stuttering edge (written only with the `stuttering` flag). */
  readonly stuttering: boolean;
}

export interface DotGraph {
  /** `strict digraph`: Graphviz would merge parallel edges when drawing; the file still lists each one. */
  readonly strict: boolean;
  /** Fingerprint → the state's text (`/\ var = value` lines), unescaped. */
  readonly nodes: ReadonlyMap<string, string>;
  /** Fingerprints of the initial states (the nodes TLC writes with `style = filled` before any edge to them). */
  readonly initial: readonly string[];
  /** Every edge line, in file order (duplicates kept). */
  readonly edges: readonly DotEdge[];
}

const FP = '-?\\d+';
const EDGE = new RegExp(`^(${FP}) -> (${FP})(?: \\[(.*)\\])?;$`);
const NODE = new RegExp(`^(${FP}) \\[(.*)\\];?$`);
/** Structural lines DotStateWriter writes around the nodes and edges. */
const STRUCTURE = [
  /^(strict )?digraph DiskGraph \{$/,
  /^node \[.*\]$/,
  /^edge \[.*\]$/,
  /^nodesep=[\d.]+;$/,
  /^subgraph cluster_graph \{$/,
  /^color="white";$/,
  /^\{rank = same; (?:-?\d+;)*\}$/,
  /^\}$/,
];

/** `key="quoted \"value\"", key = bare` → a map, with TLC's escapes (`\\`, `\"`, `\n`) undone. */
export function parseDotAttributes(text: string, where = 'dot attributes'): Map<string, string> {
  const attrs = new Map<string, string>();
  let i = 0;
  const fail = (why: string): never => {
    throw new TlcOutputError(`${where}: ${why} at column ${i + 1}: ${text.slice(0, 80)}`);
  };
  while (i < text.length) {
    while (text[i] === ' ' || text[i] === ',') i++;
    if (i >= text.length) break;
    const key = /^[A-Za-z_]\w*/.exec(text.slice(i));
    if (!key) fail('expected an attribute name');
    i += key![0].length;
    while (text[i] === ' ') i++;
    if (text[i] !== '=') fail('expected "="');
    i++;
    while (text[i] === ' ') i++;
    let value = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const c = text[i];
        if (c === undefined) fail('unterminated string');
        if (c === '"') break;
        if (c === '\\') {
          const n = text[i + 1];
          if (n === undefined) fail('dangling backslash');
          value += n === 'n' ? '\n' : n; // TLC writes \\ for \, \" for ", \n for a newline
          i += 2;
        } else {
          value += c;
          i++;
        }
      }
      i++;
    } else {
      const bare = /^[^,\]]*/.exec(text.slice(i))![0];
      value = bare.trim();
      i += bare.length;
    }
    if (attrs.has(key![0])) fail(`attribute ${key![0]} given twice`);
    attrs.set(key![0], value);
  }
  return attrs;
}

/** Parses a DotStateWriter file; throws TlcOutputError on any line it does not recognise. */
export function parseDotStateGraph(text: string): DotGraph {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const header = /^(strict )?digraph DiskGraph \{$/.exec(lines[0] ?? '');
  if (!header) throw new TlcOutputError(`not a TLC dot state graph: first line is "${(lines[0] ?? '').slice(0, 60)}"`);
  const nodes = new Map<string, string>();
  const initial: string[] = [];
  const edges: DotEdge[] = [];
  let closed = false;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const where = `dot line ${n + 1}`;
    if (line === '') continue;
    // The colour legend (only with `colorize`) follows the graph; it holds action names, no states.
    if (line.startsWith('subgraph cluster_legend')) break;
    const e = EDGE.exec(line);
    if (e) {
      const attrs = e[3] !== undefined ? parseDotAttributes(e[3], where) : new Map<string, string>();
      const stuttering = attrs.get('style') === 'dashed';
      const label = attrs.get('label');
      edges.push({ from: e[1]!, to: e[2]!, stuttering, ...(label !== undefined && { label }) });
      continue;
    }
    const v = NODE.exec(line);
    if (v) {
      const attrs = parseDotAttributes(v[2]!, where);
      // The tooltip is always the full state; the label may be a diff (-difftrace) or an ALIAS.
      const state = attrs.get('tooltip') ?? attrs.get('label');
      if (state === undefined) throw new TlcOutputError(`${where}: node ${v[1]} has no label`);
      const seen = nodes.get(v[1]!);
      if (seen !== undefined && seen !== state) throw new TlcOutputError(`${where}: node ${v[1]} written twice with different states`);
      if (seen === undefined) {
        nodes.set(v[1]!, state);
        if (attrs.get('tooltip') === undefined && /^filled$/.test(attrs.get('style') ?? '')) initial.push(v[1]!);
      }
      continue;
    }
    if (STRUCTURE.some((r) => r.test(line))) {
      if (line === '}') closed = true;
      continue;
    }
    throw new TlcOutputError(`${where}: not a DotStateWriter line: ${line.slice(0, 80)}`);
  }
  if (!closed) throw new TlcOutputError('the TLC dot state graph is truncated (no closing "}")');
  if (nodes.size === 0) throw new TlcOutputError('the TLC dot state graph holds no states');
  for (const ed of edges) {
    for (const fp of [ed.from, ed.to]) if (!nodes.has(fp)) throw new TlcOutputError(`dot edge ${ed.from} -> ${ed.to}: no node ${fp}`);
  }
  return { strict: header[1] !== undefined, nodes, initial, edges };
}
