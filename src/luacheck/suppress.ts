import { ruleNamed } from './rules.js';
import type { FindingKind } from './findings.js';

/**
 * Inline suppression of a reviewed finding: `-- lua-check-allow RULE[, RULE…]: reason`, RULE a
 * rule id (FCL001) or kind (undeclared-key). A comment alone on its line covers the next line;
 * after code, its own line. The reason is required (a reviewer must be able to read why): without
 * one, or with a rule nobody knows, the comment suppresses nothing and is a finding of its own.
 */
export interface Suppression {
  /** The line (of the checked text) it covers. */
  readonly line: number;
  readonly kinds: ReadonlySet<FindingKind>;
  readonly reason: string;
}

export interface BadSuppression {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** A comment as the parser gives it: its text after `--`, where it starts, and whether code precedes it on its line. */
export interface CommentAt {
  readonly value: string;
  readonly line: number;
  readonly column: number;
  readonly trailing: boolean;
}

const DIRECTIVE = /^\s*lua-check-allow\b(.*)$/s;

export function suppressions(comments: readonly CommentAt[]): { ok: Suppression[]; bad: BadSuppression[] } {
  const ok: Suppression[] = [];
  const bad: BadSuppression[] = [];
  for (const c of comments) {
    const m = DIRECTIVE.exec(c.value);
    if (!m) continue;
    const body = m[1]!;
    const colon = body.indexOf(':');
    const names = (colon < 0 ? body : body.slice(0, colon)).split(/[\s,]+/).filter((n) => n !== '');
    const reason = colon < 0 ? '' : body.slice(colon + 1).trim();
    const unknown = names.filter((n) => ruleNamed(n) === undefined);
    const at = { line: c.line, column: c.column };
    if (names.length === 0) bad.push({ ...at, message: 'lua-check-allow names no rule: write `-- lua-check-allow RULE: reason`' });
    else if (unknown.length > 0) bad.push({ ...at, message: `lua-check-allow names no rule called ${unknown.map((u) => `'${u}'`).join(', ')}` });
    else if (reason === '') bad.push({ ...at, message: `lua-check-allow ${names.join(', ')} gives no reason: write \`-- lua-check-allow ${names.join(', ')}: why it is safe\`` });
    else ok.push({ line: c.trailing ? c.line : c.line + 1, kinds: new Set(names.map((n) => ruleNamed(n)!.kind)), reason });
  }
  return { ok, bad };
}
