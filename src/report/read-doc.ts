/**
 * Reads a `reports/verify.json` back (for `fencecheck diff`). Anything that is not a
 * `fencecheck.verify/2` document with its stages, verdict and matrix is a DocumentError naming the
 * file and the first problem, in one line. A `fencecheck.verify/1` document (written before the TLC
 * figures came per model) is read as /2: its one TLC summary becomes its model's.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { VERIFY_SCHEMA, VERIFY_SCHEMA_V1, type TlcSummary, type VerifyReport } from './verify-doc.js';

export class DocumentError extends Error {
  override readonly name = 'DocumentError';
}

/** A verify.json is a few MB at most; a bigger file is refused rather than parsed. */
const MAX_BYTES = 64 * 1024 * 1024;

export function readVerifyDocument(path: string): VerifyReport {
  const fail = (why: string): never => {
    throw new DocumentError(`${path}: ${why}`);
  };
  let text = '';
  try {
    // A FIFO or a directory is refused before it is opened: reading one would hang or fail obscurely.
    const st = statSync(path);
    if (!st.isFile()) fail('not a regular file');
    if (st.size > MAX_BYTES) fail(`${st.size} bytes: larger than any verify document (limit ${MAX_BYTES})`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    fail(`cannot read: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    fail(`not JSON: ${(err as Error).message}`);
  }
  return validateVerifyDocument(raw, fail);
}

function validateVerifyDocument(raw: unknown, fail: (why: string) => never): VerifyReport {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('not a JSON object');
  const d = raw as Record<string, unknown>;
  if (d.schema !== VERIFY_SCHEMA && d.schema !== VERIFY_SCHEMA_V1) fail(`not a ${VERIFY_SCHEMA} document (schema ${JSON.stringify(d.schema ?? null)})`);
  const v = d.verdict as Record<string, unknown> | undefined;
  if (typeof v !== 'object' || v === null || typeof v.status !== 'string' || typeof v.exitCode !== 'number') fail('"verdict" must be an object with "status" and "exitCode"');
  if (typeof d.tool !== 'object' || d.tool === null) fail('"tool" must be an object');
  if (typeof d.options !== 'object' || d.options === null) fail('"options" must be an object');
  if (!Array.isArray(d.stages)) fail('"stages" must be an array');
  for (const [i, s] of (d.stages as unknown[]).entries()) {
    const o = s as Record<string, unknown> | null;
    if (typeof o !== 'object' || o === null || typeof o.stage !== 'string' || typeof o.status !== 'string') fail(`stages[${i}] must have "stage" and "status"`);
    if (o!.counts !== undefined && (typeof o!.counts !== 'object' || o!.counts === null)) fail(`stages[${i}].counts must be an object`);
  }
  const m = d.mutationMatrix as Record<string, unknown> | undefined;
  if (typeof m !== 'object' || m === null || !Array.isArray(m.layers) || !Array.isArray(m.rows)) fail('"mutationMatrix" must have "layers" and "rows" arrays');
  for (const [i, r] of (m!.rows as unknown[]).entries()) {
    const row = r as Record<string, unknown> | null;
    if (typeof row !== 'object' || row === null || typeof row.id !== 'string' || typeof row.cells !== 'object' || row.cells === null) fail(`mutationMatrix.rows[${i}] must have "id" and "cells"`);
  }
  if (d.schema === VERIFY_SCHEMA_V1) {
    if (d.tlc !== null && d.tlc !== undefined && (typeof d.tlc !== 'object' || Array.isArray(d.tlc))) fail('"tlc" must be an object or null');
    return { ...d, schema: VERIFY_SCHEMA, tlc: d.tlc ? [fromV1(d.tlc as Record<string, unknown>)] : [] } as unknown as VerifyReport;
  }
  if (!Array.isArray(d.tlc) || !d.tlc.every((t) => typeof t === 'object' && t !== null && typeof (t as Record<string, unknown>).model === 'string'))
    fail('"tlc" must be an array of TLC summaries, each with its "model"');
  return d as unknown as VerifyReport;
}

/** A /1 TLC summary had no model: it is the one its config is named after (`Spec.cfg` checks `Spec`). */
function fromV1(t: Record<string, unknown>): TlcSummary {
  const config = typeof t.config === 'string' ? t.config : undefined;
  return { ...t, model: config ? basename(config, '.cfg') : 'unknown' } as unknown as TlcSummary;
}
