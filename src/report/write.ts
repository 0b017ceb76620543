import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { projectRoot } from '../core/project-root.js';
import { tryLoadAnyTrace } from '../trace/load.js';
import { renderHtml } from './html.js';
import { junitXml } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { VerifyReport } from './verify-doc.js';
import { buildView, type TraceSet } from './view.js';

export interface WrittenReports {
  readonly json: string;
  readonly junit: string;
  readonly markdown: string;
  readonly html: string;
}

/** Every trace the document names, read from the project root (unreadable ones carry their error). */
export function loadReportTraces(report: VerifyReport, root = projectRoot): TraceSet {
  return new Map(report.traces.map((p) => [p, tryLoadAnyTrace(isAbsolute(p) ? p : resolve(root, p))]));
}

/** The four report files in `dir`. */
export function reportFiles(dir: string): WrittenReports {
  return { json: join(dir, 'verify.json'), junit: join(dir, 'junit.xml'), markdown: join(dir, 'verify.md'), html: join(dir, 'verify.html') };
}

export interface WriteOptions {
  /** How a file is written (default writeFileSync; a test passes one that fails). */
  readonly writeFile?: (path: string, data: string) => void;
  /** The folder the reports will be read from, when it is not `outDir` (links are relative to it). */
  readonly linksFrom?: string;
}

/** Writes verify.json, junit.xml, verify.md and verify.html into `outDir`. */
export function writeVerifyReports(report: VerifyReport, outDir: string, root = projectRoot, opts: WriteOptions = {}): WrittenReports {
  const write = opts.writeFile ?? writeFileSync;
  const from = opts.linksFrom ?? outDir;
  mkdirSync(outDir, { recursive: true });
  const view = buildView(report, loadReportTraces(report, root), (p) => relative(from, resolve(root, p)));
  const files = reportFiles(outDir);
  write(files.json, `${JSON.stringify(report, null, 2)}\n`);
  write(files.junit, junitXml(report));
  write(files.markdown, renderMarkdown(view));
  write(files.html, renderHtml(view));
  return files;
}
