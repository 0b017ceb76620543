/**
 * Judges a session's reported outcomes against the C scripts' semantics, never against the
 * variant: the session's calls ran one at a time, so the set of keyspace states consistent with
 * what was reported is tracked through them (an unknown call forks it: ran / did not run). A reply
 * no consistent state could give means some earlier outcome was reported wrongly (a call
 * reported refused or not run had applied, or was re-sent); the final keyspace must be one of the
 * states left. A generation returned twice is a fencing failure on its own.
 */
import type { CallRecord, Reply } from './outcomes.js';

interface State {
  readonly lease: { readonly owner: string; readonly gen: number } | null;
  readonly counter: number;
}

const key = (s: State) => JSON.stringify(s);
const MAX_STATES = 256;

function step(s: State, c: CallRecord): { next: State; reply: Reply } {
  if (c.op === 'acquire') {
    if (s.lease) return { next: s, reply: { kind: 'held', owner: s.lease.owner, gen: s.lease.gen } };
    const g = s.counter + 1;
    return { next: { lease: { owner: c.owner, gen: g }, counter: g }, reply: { kind: 'ok', gen: g } };
  }
  if (s.lease && s.lease.owner === c.owner && s.lease.gen === c.gen) return { next: { lease: null, counter: s.counter }, reply: { kind: 'released' } };
  return { next: s, reply: { kind: 'notheld' } };
}

const sameReply = (a: Reply, b: Reply) => JSON.stringify(a) === JSON.stringify(b);

export interface SessionVerdict {
  readonly session: string;
  readonly findings: string[];
  readonly issued: number[];
}

export function judgeSession(session: string, calls: readonly CallRecord[], final: State): SessionVerdict {
  const findings: string[] = [];
  const issued: number[] = [];
  let states = new Map<string, State>([[key({ lease: null, counter: 0 }), { lease: null, counter: 0 }]]);
  for (const [i, c] of calls.entries()) {
    if (c.reply?.kind === 'ok') {
      if (issued.includes(c.reply.gen)) findings.push(`${session}: generation ${c.reply.gen} issued twice (call ${i + 1})`);
      issued.push(c.reply.gen);
    }
    const next = new Map<string, State>();
    for (const s of states.values()) {
      const r = step(s, c);
      if (c.reply) {
        if (sameReply(r.reply, c.reply)) next.set(key(r.next), r.next);
      } else if (c.outcome === 'unknown') {
        next.set(key(s), s);
        next.set(key(r.next), r.next);
      } else next.set(key(s), s); // refused without a reply: it did not run
    }
    if (next.size === 0) {
      findings.push(
        `${session}: call ${i + 1} (${c.op} by ${c.owner}) answered ${JSON.stringify(c.reply)}, which no state left by the reported outcomes gives: an earlier outcome was reported wrongly`,
      );
      return { session, findings, issued };
    }
    if (next.size > MAX_STATES) return { session, findings: [...findings, `${session}: too many unknown outcomes to judge (${next.size} states)`], issued };
    states = next;
  }
  if (!states.has(key(final))) findings.push(`${session}: the final keyspace ${key(final)} is not explained by the reported outcomes`);
  return { session, findings, issued };
}

export type { State as SessionState };
