/**
 * The one JUnit XML writer (verify's junit.xml, `lua-check --junit`): suites of test cases, each
 * suite with optional properties and system-out. Text is escaped, and the control characters XML
 * 1.0 cannot carry are dropped.
 */

export interface Case {
  readonly classname: string;
  readonly name: string;
  readonly seconds: number;
  readonly result: { kind: 'pass' } | { kind: 'skipped' | 'failure' | 'error'; message: string; body?: string };
  readonly out?: string;
}

/** XML 1.0 text: escaped, and without the control characters XML cannot carry. */
export function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export interface SuiteExtra {
  readonly properties: readonly (readonly [string, string])[];
  readonly out: string;
}

/** A JUnit document: suites of cases, each suite with optional properties and system-out (the one writer of JUnit). */
export function testsuitesXml(
  title: string,
  startedAt: string,
  seconds: number,
  suites: readonly (readonly [string, readonly Case[]])[],
  suiteExtras: Readonly<Record<string, SuiteExtra>> = {},
): string {
  const count = (cs: readonly Case[], kind: string) => cs.filter((c) => c.result.kind === kind).length;
  const all = suites.flatMap(([, cs]) => cs);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // Jenkins' strict schema (junit-10.xsd) allows only these on <testsuites>: skipped and timestamp are the suites'.
    `<testsuites name="${xmlText(title)}" tests="${all.length}" failures="${count(all, 'failure')}" errors="${count(all, 'error')}" time="${seconds.toFixed(3)}">`,
  ];
  for (const [name, cases] of suites) {
    const time = cases.reduce((t, c) => t + c.seconds, 0);
    lines.push(
      `  <testsuite name="${xmlText(name)}" tests="${cases.length}" failures="${count(cases, 'failure')}" errors="${count(cases, 'error')}" skipped="${count(cases, 'skipped')}" time="${time.toFixed(3)}" timestamp="${xmlText(startedAt)}">`,
    );
    const extra = suiteExtras[name];
    // The schema's order: properties, then the testcases, then the suite's system-out.
    if (extra && extra.properties.length > 0) lines.push('    <properties>', ...extra.properties.map(([k, v]) => `      <property name="${xmlText(k)}" value="${xmlText(v)}"/>`), '    </properties>');
    for (const c of cases) {
      const open = `    <testcase classname="${xmlText(c.classname)}" name="${xmlText(c.name)}" time="${c.seconds.toFixed(3)}"`;
      const inner: string[] = [];
      if (c.result.kind !== 'pass') {
        const tag = c.result.kind;
        inner.push(c.result.body ? `      <${tag} message="${xmlText(c.result.message)}">${xmlText(c.result.body)}</${tag}>` : `      <${tag} message="${xmlText(c.result.message)}"/>`);
      }
      if (c.out) inner.push(`      <system-out>${xmlText(c.out)}</system-out>`);
      lines.push(inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`);
    }
    if (extra?.out) lines.push(`    <system-out>${xmlText(extra.out)}</system-out>`);
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
