/**
 * The HTML report in a real headless Chromium (/usr/bin/chromium, installed by scripts/setup):
 * it renders offline (every non-file request is blocked and recorded), shows the mutation matrix
 * and the trace's SVG sequence diagram, and its cells link to the trace. A screenshot is written
 * to reports/browser/verify-report.png.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { traceAnchor } from '../../src/report/view.js';
import { writeVerifyReports } from '../../src/report/write.js';
import { CONFORM_M1_TRACE_PATH, FULL_TRACE_COUNT, fixtureReport, fixtureRoot, fullReport, M1_TRACE_PATH } from './fixtures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('HTML report in headless Chromium', () => {
  let context: BrowserContext;
  let userDataDir: string;
  let htmlPath: string;
  let junitPath: string;
  let conformHtmlPath: string;
  let conformJunitPath: string;
  let fullHtmlPath: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup (installs the Debian package chromium)`);
    const root = fixtureRoot();
    ({ html: htmlPath, junit: junitPath } = writeVerifyReports(fixtureReport(), join(root, 'reports'), root));
    // The same run with a failing conform stage (the captured `conform --mutant M1 --json`).
    ({ html: conformHtmlPath, junit: conformJunitPath } = writeVerifyReports(fixtureReport({ conform: 'M1' }), join(root, 'reports-conform'), root));
    // A complete run: every mutant layer's column filled (TLC's from the evidence), FULL_TRACE_COUNT traces.
    const full = fullReport();
    ({ html: fullHtmlPath } = writeVerifyReports(full.report, join(full.root, 'reports'), full.root));
    userDataDir = ownedTempDir('chromium');
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
    const cell = (id: string, layerIndex: number) =>
      row(id)
        .locator('td')
        .nth(3 + layerIndex);
    await expect(cell('M1', 1).textContent()).resolves.toBe('killed: Inv_SingleAuthority');
    await expect(cell('M3', 1).textContent()).resolves.toBe('survived');
    await expect(cell('M1', 0).textContent()).resolves.toBe('not run');
    await expect(cell('M1', 2).textContent()).resolves.toBe('not selected');
    await expect(cell('L1', 0).textContent()).resolves.toBe('—');
    // Survivors are drawn in red, kills in green: the CSS is inline and applied.
    await expect(cell('M3', 1).evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(201, 42, 42)');
    await expect(cell('M1', 1).evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(43, 138, 62)');

    // The trace is collapsed until its matrix cell's link is followed: the link opens it.
    const details = page.locator(`#${traceAnchor(M1_TRACE_PATH)}-details`);
    await expect(details.evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(false);
    await expect(page.locator(`#${traceAnchor(M1_TRACE_PATH)} svg.seq`).isVisible()).resolves.toBe(false);
    await cell('M1', 1).locator('a').click();
    expect(new URL(page.url()).hash).toBe(`#${traceAnchor(M1_TRACE_PATH)}`);
    await expect(details.evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(true);
    await expect(page.locator(`#${traceAnchor(M1_TRACE_PATH)} h3`).isVisible()).resolves.toBe(true);

    const svg = page.locator(`#${traceAnchor(M1_TRACE_PATH)} svg.seq`);
    await expect(svg.count()).resolves.toBe(1);
    const box = await svg.boundingBox();
    expect(box?.width).toBeGreaterThan(800);
    expect(box?.height).toBeGreaterThan(300);
    await expect(svg.locator('g.message[data-step="8"] text').textContent()).resolves.toBe('8. AcquireB(p1): newLease.owner := p1, newLease.gen := 2, newGen := 2, lastIssued := 2');
    await expect(svg.locator('g.note.alarm text').textContent()).resolves.toBe('✗ Inv_SingleAuthority');
    await expect(page.locator(`#${traceAnchor(M1_TRACE_PATH)} table.steps tr.broken td.changed`).allTextContents()).resolves.toEqual(['p1', '2', '2', '2']);

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
    await expect(
      acquireB
        .locator('td')
        .nth(1)
        .evaluate((el) => getComputedStyle(el).color),
    ).resolves.toBe('rgb(201, 42, 42)');
    await expect(section.locator('pre').first().textContent()).resolves.toBe(`fencecheck trace replay ${CONFORM_M1_TRACE_PATH}`);
    // Collapsed, the replay command still shows in its summary; a click opens it.
    const summary = section.locator('details.trace > summary');
    await expect(summary.locator('code.replay').isVisible()).resolves.toBe(true);
    await expect(summary.locator('code.replay').textContent()).resolves.toBe(`replay: fencecheck trace replay ${CONFORM_M1_TRACE_PATH}`);
    await summary.click();
    const svg = section.locator(`#${traceAnchor(CONFORM_M1_TRACE_PATH)} svg.seq`);
    await expect(svg.count()).resolves.toBe(1);
    expect((await svg.boundingBox())?.height).toBeGreaterThan(300);
    await expect(svg.locator('g.message[data-step="8"] text').textContent()).resolves.toBe('8. AcquireB(p1): newLease.owner := p1, newLease.gen := 2, newGen := 2, lastIssued := 2');
    await expect(svg.locator('g.note.alarm text').textContent()).resolves.toBe('✗ Inv_SingleAuthority');
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

  it('fits the whole matrix on a 1400 px screen; narrower, only the matrix scrolls, the mutant column stays', async () => {
    const { page, external } = await offlinePage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(pathToFileURL(fullHtmlPath).href);
    const headers = page.locator('#mutation-matrix-table thead th');
    await expect(headers.allTextContents()).resolves.toEqual(['mutant', 'removes', 'expected', 'tla', 'model', 'impl']);
    const limiter = await headers.last().boundingBox();
    expect(limiter).not.toBeNull();
    expect(limiter!.x).toBeGreaterThanOrEqual(0);
    expect(limiter!.x + limiter!.width).toBeLessThanOrEqual(1400);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(1400);
    mkdirSync(join(projectRoot, 'reports', 'browser'), { recursive: true });
    await page.locator('#mutation-matrix').screenshot({ path: join(projectRoot, 'reports', 'browser', 'verify-matrix-1400.png') });

    await page.setViewportSize({ width: 700, height: 900 });
    // The page itself does not scroll sideways; the matrix's own box does.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(700);
    const box = page.locator('#mutation-matrix-table-scroll');
    const sizes = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    const firstCell = page.locator('#mutation-matrix-table tbody tr').first().locator('td').first();
    const secondCell = page.locator('#mutation-matrix-table tbody tr').first().locator('td').nth(1);
    const before = { first: (await firstCell.boundingBox())!.x, second: (await secondCell.boundingBox())!.x };
    await box.evaluate((el) => el.scrollBy(300, 0));
    expect((await secondCell.boundingBox())!.x).toBeLessThan(before.second - 100);
    // Sticky: the mutant column stays put (within its border's width) while the rest scrolls under it.
    expect(Math.abs((await firstCell.boundingBox())!.x - before.first)).toBeLessThan(2);
    expect(external).toEqual([]);
  });

  it('collapses every trace, each with an id its matrix cell links to, its replay command visible', async () => {
    const { page } = await offlinePage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(pathToFileURL(fullHtmlPath).href);
    const traces = page.locator('section#traces details.trace');
    await expect(traces.count()).resolves.toBe(FULL_TRACE_COUNT);
    await expect(traces.evaluateAll((els) => els.filter((el) => (el as HTMLDetailsElement).open).length)).resolves.toBe(0);
    await expect(page.locator('section#traces details.trace > summary code.replay').evaluateAll((els) => els.filter((el) => (el as HTMLElement).offsetHeight > 0).length)).resolves.toBe(
      FULL_TRACE_COUNT,
    );
    // Every link in the matrix lands on a trace body inside one of those details.
    const hrefs = await page.locator('#mutation-matrix-table a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toHaveLength(FULL_TRACE_COUNT);
    const landed = await page.evaluate((hs) => hs.filter((h) => document.querySelector(h!)?.parentElement?.matches('details.trace')).length, hrefs);
    expect(landed).toBe(FULL_TRACE_COUNT);
  });
});
