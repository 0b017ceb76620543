/**
 * What a fencing call reported: applied (the script did it), refused (the script declined, or the
 * call was never executed: nothing listened, CLUSTERDOWN), or unknown (sent, no reply: it may have
 * run). A call's outcome comes from what the client saw; classifyFault decides which failures may
 * have executed.
 */
import { classifyFault } from '../../../../valkey/fault.js';
import { OutcomeUnknownError } from '../../../../valkey/index.js';

export type Op = 'acquire' | 'release';

/** The script's answer, when there was one. */
export type Reply =
  | { readonly kind: 'ok'; readonly gen: number }
  | { readonly kind: 'held'; readonly owner: string; readonly gen: number }
  | { readonly kind: 'released' }
  | { readonly kind: 'notheld' };

export type Outcome = 'applied' | 'refused' | 'unknown';

export interface CallRecord {
  readonly session: string;
  readonly op: Op;
  readonly owner: string;
  /** release: the generation released. */
  readonly gen?: number;
  readonly outcome: Outcome;
  readonly reply?: Reply;
  /** A failure: its one-line reason. */
  readonly failure?: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

export const outcomeOfReply = (r: Reply): Outcome => (r.kind === 'ok' || r.kind === 'released' ? 'applied' : 'refused');

/** unknown when the call may have executed (the connection went under it, a timeout); refused when it cannot have. */
export function outcomeOfFailure(err: unknown): { outcome: Outcome; failure: string; fault: boolean } {
  const f = classifyFault(err);
  const failure = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
  if (err instanceof OutcomeUnknownError || f?.kind === 'connection-lost' || f?.kind === 'timeout') return { outcome: 'unknown', failure, fault: true };
  if (f) return { outcome: 'refused', failure, fault: true };
  // MOVED/TRYAGAIN exhausted, CLUSTERDOWN: the server did not execute it.
  if (/^(MOVED|ASK|TRYAGAIN|CLUSTERDOWN)\b|Too many Cluster redirections/.test(failure)) return { outcome: 'refused', failure, fault: true };
  return { outcome: 'refused', failure, fault: false };
}
