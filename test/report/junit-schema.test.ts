/**
 * Every JUnit document fencecheck writes is valid against the strict schema Jenkins validates
 * JUnit reports with (junit-10.xsd of the xUnit plugin, vendored in test/schemas), checked by
 * xmllint (Debian's libxml2-utils, installed by scripts/setup): verify's report and lua-check's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { DEFAULT_INCLUDE_PATTERN, includePattern } from '../../src/luacheck/includes.js';
import { committedSnapshot } from '../../src/luacheck/keyspecs.js';
import { luaCheckJunit } from '../../src/luacheck/format.js';
import { checkPaths } from '../../src/luacheck/run.js';
import { junitXml } from '../../src/report/junit.js';
import { fixtureReport, fullReport } from './fixtures.js';

const XSD = join(import.meta.dirname, '../schemas/junit-10.xsd');
let dir: string;

/** xmllint's verdict on a document: '' when valid, else its complaints. */
function schemaErrors(name: string, xml: string): string {
  const file = join(dir, name);
  writeFileSync(file, xml);
  const r = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
  if (r.error) throw new Error(`xmllint could not run (${r.error.message}): install libxml2-utils (scripts/setup does)`);
  return r.status === 0 ? '' : r.stderr.trim();
}

beforeAll(() => {
  dir = ownedTempDir('junit-schema');
  execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
});

describe("JUnit valid against Jenkins' junit-10.xsd", () => {
  it("verify's report: stages, mutants, suites from the stages' details, properties, the gate", () => {
    expect(schemaErrors('verify-fixture.xml', junitXml(fixtureReport()))).toBe('');
    expect(schemaErrors('verify-full.xml', junitXml(fullReport().report))).toBe('');
  });

  it("lua-check's: passing, failing and unparseable files, each case with its own measured time", () => {
    const corpus = join(import.meta.dirname, '../luacheck/corpus');
    const broken = join(dir, 'broken.lua');
    writeFileSync(broken, 'return (\n');
    const r = checkPaths([corpus, broken, join(dir, 'missing.lua')], { snapshot: committedSnapshot(), failOn: 'warning', includePattern: includePattern(DEFAULT_INCLUDE_PATTERN) });
    const xml = luaCheckJunit(r, 'warning', new Date().toISOString(), 1.5);
    expect(schemaErrors('lua-check.xml', xml)).toBe('');
    expect(xml).toMatch(/<failure /);
    expect(xml).toMatch(/<error /);
    // Every file that was read and checked took time; only the missing one did not.
    const times = [...xml.matchAll(/<testcase [^>]*name="([^"]*)" time="([0-9.]+)"/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(times.filter(([, t]) => t === '0.000').map(([n]) => n)).toEqual([expect.stringMatching(/missing\.lua$/)]);
  });

  it('the check can fail: skipped and timestamp on <testsuites> (what fencecheck wrote before) are refused', () => {
    const old = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" tests="0" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-01-01T00:00:00Z">\n</testsuites>\n';
    expect(schemaErrors('old.xml', old)).toMatch(/attribute 'skipped' is not allowed/);
  });
});
