/**
 * The HTML report in a real headless Chromium (/usr/bin/chromium, installed by scripts/setup):
 * it renders offline (every non-file request is blocked and recorded), shows the mutation matrix
 * and the trace's SVG sequence diagram, and its cells link to the trace. A screenshot is written
 * to reports/browser/verify-report.png.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { traceAnchor } from '../../src/report/view.js';
import { writeVerifyReports } from '../../src/report/write.js';
import { CONFORM_M1_TRACE_PATH, fixtureReport, fixtureRoot, M1_TRACE_PATH } from './fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('HTML report in headless Chromium', () => {
  let context: BrowserContext;
  let userDataDir: string;
  let htmlPath: string;
  let junitPath: string;
  let conformHtmlPath: string;
  let conformJunitPath: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup (installs the Debian package chromium)`);
    const root = fixtureRoot();
    ({ html: htmlPath, junit: junitPath } = writeVerifyReports(fixtureReport(), join(root, 'reports'), root));
    // The same run with a failing conform stage (the captured `conform --mutant M1 --json`).
    ({ html: conformHtmlPath, junit: conformJunitPath } = writeVerifyReports(fixtureReport({ conform: 'M1' }), join(root, 'reports-conform'), root));
    userDataDir = mkdtempSync(join(tmpdir(), 'fencecheck-chromium-'));
    // headless: true passes --headless; launchPersistentContext passes the fresh --user-data-dir.
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 } });
  });

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  /** A page that may load only file: and data: URLs; every other request is recorded and aborted. */
  async function offlinePage() {
    const page = await context.newPage();
    const external: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
      external.push(url);
      return route.abort();
    });
    return { page, external };
  }

  it('renders offline: the matrix cells, the SVG trace diagram, and links from a cell to its trace', async () => {
    const { page, external } = await offlinePage();
    await page.goto(pathToFileURL(htmlPath).href);

    await expect(page.title()).resolves.toBe('fencecheck verify — FAILED');
    const matrix = page.locator('#mutation-matrix-table');
    const row = (id: string) => matrix.locator('tbody tr').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${id}$`) }) });
    const cell = (id: string, layerIndex: number) => row(id).locator('td').nth(3 + layerIndex);
    await expect(cell('M1', 1).textContent()).resolves.toBe('killed: Inv_SingleAuthority');
    await expect(cell('M3', 1).textContent()).resolves.toBe('survived');
    await expect(cell('M1', 0).textContent()).resolves.toBe('not run');
    await expect(cell('M1', 2).textContent()).resolves.toBe('not selected');
    await expect(cell('L1', 0).textContent()).resolves.toBe('—');
    // Survivors are drawn in red, kills in green: the CSS is inline and applied.
    await expect(cell('M3', 1).evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(201, 42, 42)');
    await expect(cell('M1', 1).evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(43, 138, 62)');

    const svg = page.locator(`#${traceAnchor(M1_TRACE_PATH)} svg.seq`);
    await expect(svg.count()).resolves.toBe(1);
    const box = await svg.boundingBox();
    expect(box?.width).toBeGreaterThan(800);
    expect(box?.height).toBeGreaterThan(300);
    await expect(svg.locator('g.message[data-step="8"] text').textContent()).resolves.toBe('8. AcquireB → lease p1/2');
    await expect(svg.locator('g.note.alarm text').textContent()).resolves.toContain('two live leases');
    await expect(page.locator(`#${traceAnchor(M1_TRACE_PATH)} table.steps tr.broken td.changed`).allTextContents()).resolves.toEqual(['p1/2', '2', '2']);

    await cell('M1', 1).locator('a').click();
    expect(new URL(page.url()).hash).toBe(`#${traceAnchor(M1_TRACE_PATH)}`);
    await expect(page.locator(`#${traceAnchor(M1_TRACE_PATH)} h3`).isVisible()).resolves.toBe(true);

    const shotDir = join(projectRoot, 'reports', 'browser');
    mkdirSync(shotDir, { recursive: true });
    const shot = join(shotDir, 'verify-report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(50_000);
    expect(external).toEqual([]);
  });

  it("parses the JUnit file with the browser's XML parser (well-formed, counts as declared)", async () => {
    const page = await context.newPage();
    const xml = readFileSync(junitPath, 'utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const root = doc.documentElement;
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        declared: Number(root.getAttribute('tests')),
        cases: doc.querySelectorAll('testcase').length,
        skipped: doc.querySelectorAll('testcase > skipped').length,
        tlcSkip: doc.querySelector('testcase[name="tlc"] > skipped')?.getAttribute('message') ?? null,
      };
    }, xml);
    expect(parsed.error).toBeNull();
    expect(parsed.cases).toBe(parsed.declared);
    expect(parsed.skipped).toBeGreaterThan(0);
    expect(parsed.tlcSkip).toBe('not run: no tla2tools.jar (set TLA2TOOLS_JAR) (allowed)');
  });

  it('renders the Conformance section offline: coverage, the per-action table, the first mismatch as an SVG trace', async () => {
    const { page, external } = await offlinePage();
    await page.goto(pathToFileURL(conformHtmlPath).href);
    const section = page.locator('section#conformance');
    await expect(section.locator('h2').textContent()).resolves.toBe('Conformance');
    await expect(section.locator('#conform-coverage tbody tr').first().locator('td').allTextContents()).resolves.toEqual(['states', '220', '4117', '5.3 %']);
    const acquireB = section.locator('#conform-actions tbody tr').filter({ has: page.locator('td:first-child', { hasText: /^AcquireB$/ }) });
    await expect(acquireB.locator('td').nth(1).textContent()).resolves.toBe('3 / 624 (0.5 %)');
    await expect(acquireB.locator('td').nth(1).evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(201, 42, 42)');
    await expect(section.locator('pre').first().textContent()).resolves.toBe(`fencecheck trace replay ${CONFORM_M1_TRACE_PATH}`);
    const svg = section.locator(`#${traceAnchor(CONFORM_M1_TRACE_PATH)} svg.seq`);
    await expect(svg.count()).resolves.toBe(1);
    expect((await svg.boundingBox())?.height).toBeGreaterThan(300);
    await expect(svg.locator('g.message[data-step="8"] text').textContent()).resolves.toBe('8. AcquireB → lease p1/2');
    await expect(svg.locator('g.note.alarm text').textContent()).resolves.toContain('two live leases');
    await expect(section.locator('table.steps tr[data-step="8"] td.observed').textContent()).resolves.toBe('acquire: issued 2');
    mkdirSync(join(projectRoot, 'reports', 'browser'), { recursive: true });
    await section.screenshot({ path: join(projectRoot, 'reports', 'browser', 'verify-conformance.png') });
    expect(external).toEqual([]);

    const xml = readFileSync(conformJunitPath, 'utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const suite = doc.querySelector('testsuite[name="fencecheck.conform"]');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        declared: Number(doc.documentElement.getAttribute('tests')),
        cases: doc.querySelectorAll('testcase').length,
        suiteFailures: Number(suite?.getAttribute('failures')),
        suiteCases: suite?.querySelectorAll('testcase').length ?? 0,
        tourBody: suite?.querySelector('testcase[name="conformance tour"] > failure')?.textContent ?? null,
      };
    }, xml);
    expect(parsed.error).toBeNull();
    expect(parsed.cases).toBe(parsed.declared);
    expect(parsed.suiteFailures).toBe(parsed.suiteCases);
    expect(parsed.tourBody).toContain(`replay: fencecheck trace replay ${CONFORM_M1_TRACE_PATH}`);
  });
});
