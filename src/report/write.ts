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

/** Writes verify.json, junit.xml, verify.md and verify.html into `outDir`. */
export function writeVerifyReports(report: VerifyReport, outDir: string, root = projectRoot): WrittenReports {
  mkdirSync(outDir, { recursive: true });
  const view = buildView(report, loadReportTraces(report, root), (p) => relative(outDir, resolve(root, p)));
  const files: WrittenReports = {
    json: join(outDir, 'verify.json'),
    junit: join(outDir, 'junit.xml'),
    markdown: join(outDir, 'verify.md'),
    html: join(outDir, 'verify.html'),
  };
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.junit, junitXml(report));
  writeFileSync(files.markdown, renderMarkdown(view));
  writeFileSync(files.html, renderHtml(view));
  return files;
}
