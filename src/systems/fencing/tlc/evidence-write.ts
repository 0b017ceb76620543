import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../../core/project-root.js';
import { BASE_EVIDENCE, mutantEvidencePath, type RunEvidence } from './evidence.js';

function writeJson(root: string, rel: string, value: unknown): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  return rel;
}

/**
 * Writes evidence/tlc/fencing/base.json and, with the states, base.states.txt (one canonicalKey() per line);
 * with the edge list's text, base.edges.txt.
 */
export function writeBaseEvidence(evidence: RunEvidence, states: readonly string[] | undefined, root = projectRoot, edgesText?: string): string[] {
  const written = [writeJson(root, BASE_EVIDENCE, evidence)];
  const writeText = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
    written.push(rel);
  };
  if (states && evidence.states) writeText(evidence.states.file, `${states.join('\n')}\n`);
  if (edgesText !== undefined && evidence.edges) writeText(evidence.edges.file, edgesText);
  return written;
}

export function writeMutantEvidence(evidence: RunEvidence, root = projectRoot): string {
  return writeJson(root, mutantEvidencePath(evidence.run), evidence);
}

/** A per-run JSON result under reports/ (ignored by git): what `fencecheck tlc` saw this time. */
export function writeRunReport(name: string, value: unknown, root = projectRoot): string {
  return writeJson(root, `reports/tlc/${name}.json`, value);
}
