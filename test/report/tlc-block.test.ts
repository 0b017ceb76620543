import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { tlcFlagRows, tlcFlags } from '../../src/report/tlc-flags.js';
import { tlcSummary } from '../../src/report/tlc-summary.js';
import { tlcModelBlock } from '../../src/tlc/evidence-block.js';
import { buildView } from '../../src/report/view.js';
import { fixtureReport } from './fixtures.js';

const COMMAND =
  'java -XX:+UseParallelGC -cp tla2tools.jar tlc2.TLC -tool -deadlock -workers 1 -metadir <tmp> -dump dot,actionlabels <tmp>/states.dot -config tla/fencing/RedisClusterFencingMigration.cfg tla/fencing/RedisClusterFencingMigration.tla';
const RECORD = {
  specSha256: '93'.repeat(32),
  config: 'tla/fencing/RedisClusterFencingMigration.cfg',
  configSha256: 'dc'.repeat(32),
  tlcVersion: 'TLC2 Version 2026.12.01',
  command: COMMAND,
  generated: 15637,
  distinct: 4117,
  depth: 28,
  states: { file: 'evidence/tlc/fencing/base.states.txt', sha256: 'c9'.repeat(32), count: 4117 },
  edges: { file: 'evidence/tlc/fencing/base.edges.txt', sha256: '2b'.repeat(32), count: 15636, selfLoops: 1260 },
};

describe('TLC flags', () => {
  it('reads deadlock checking, workers and the dump from the command line', () => {
    expect(tlcFlags(COMMAND)).toEqual({
      deadlockChecking: false,
      workers: '1',
      dump: 'dot,actionlabels <tmp>/states.dot',
      flags: ['-tool', '-deadlock', '-workers 1', '-metadir <tmp>', '-dump dot,actionlabels <tmp>/states.dot', '-config tla/fencing/RedisClusterFencingMigration.cfg'],
      jvm: ['-XX:+UseParallelGC'],
    });
    expect(tlcFlags('java -cp x.jar tlc2.TLC -dump <tmp>/s.dump Spec.tla')).toEqual({ deadlockChecking: true, dump: '<tmp>/s.dump', flags: ['-dump <tmp>/s.dump'] });
    expect(tlcFlags('not a TLC command')).toBeUndefined();
    expect(tlcFlagRows(tlcFlags(COMMAND)!).slice(0, 2)).toEqual([
      ['deadlock checking', 'off (-deadlock): a state with no successor is not reported'],
      ['workers', '1 (-workers 1)'],
    ]);
    expect(tlcFlagRows(tlcFlags('java -cp x.jar tlc2.TLC Spec.tla')!)[1]).toEqual(['workers', '1 (TLC default, no -workers flag)']);
  });
});

describe('TLC block', () => {
  // The evidence stage's report carries the committed record as its TLC block (as `fencecheck evidence` builds it).
  const base = fixtureReport();
  const outcomes = base.stages.map((o) =>
    o.stage === 'evidence' && o.report
      ? {
          ...o,
          report: {
            ...o.report,
            details: {
              tlcModels: [
                tlcModelBlock({ ...RECORD, bounds: { pods: ['p1', 'p2', 'p3'], maxGen: 4 }, invariants: ['TypeOK'], outcome: 'ok', spec: 'tla/fencing/RedisClusterFencingMigration.tla' }, 'evidence'),
              ],
            },
            counts: { edges: 15636, generated: 15637 },
          },
        }
      : o,
  );
  const tlc = tlcSummary(outcomes);

  it('gathers the config hash, both dump hashes, the command and its flags', () => {
    expect(tlc).toHaveLength(1);
    expect(tlc[0]).toMatchObject({
      model: 'RedisClusterFencingMigration',
      from: 'evidence',
      config: RECORD.config,
      configSha256: RECORD.configSha256,
      dumps: { states: { sha256: RECORD.states.sha256, count: 4117, file: RECORD.states.file }, edges: { sha256: RECORD.edges.sha256, count: 15636, file: RECORD.edges.file } },
      command: COMMAND,
      flags: { deadlockChecking: false, workers: '1' },
    });
  });

  it('shows them in the HTML and Markdown TLC report, deadlock checking off in words', () => {
    const view = buildView({ ...base, stages: outcomes, tlc }, new Map());
    const html = renderHtml(view);
    const section = html.slice(html.indexOf('<section id="tlc">'), html.indexOf('</section>', html.indexOf('<section id="tlc">')));
    expect(section).toContain(`<tr><th>config SHA-256</th><td>${RECORD.configSha256}</td></tr>`);
    expect(section).toContain(`<tr><th>state dump SHA-256</th><td>${RECORD.states.sha256} (4117 states, evidence/tlc/fencing/base.states.txt)</td></tr>`);
    expect(section).toContain(`<tr><th>edge list SHA-256</th><td>${RECORD.edges.sha256} (15636 labelled edges, evidence/tlc/fencing/base.edges.txt)</td></tr>`);
    expect(section).toContain('<tr><th>deadlock checking</th><td>off (-deadlock): a state with no successor is not reported</td></tr>');
    expect(section).toContain('<tr><th>workers</th><td>1 (-workers 1)</td></tr>');
    // One part per model, headed by its module and spec; its bounds as the spec's constants.
    expect(section).toContain('<h4>RedisClusterFencingMigration (tla/fencing/RedisClusterFencingMigration.tla)</h4>');
    expect(section).toContain('<tr><th>bounds</th><td>pods = {p1, p2, p3}, maxGen = 4</td></tr>');
    expect(section).toContain(`<pre>${COMMAND.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</pre>`);
    const md = renderMarkdown(view);
    expect(md).toContain('| **deadlock checking** | off (-deadlock): a state with no successor is not reported |');
    expect(md).toContain(`| **config SHA-256** | ${RECORD.configSha256} |`);
  });

  it('says the flags are unknown when no command was recorded, never "on"', () => {
    const html = renderHtml(buildView(fixtureReport(), new Map()));
    expect(html).toContain('<tr><th>deadlock checking</th><td>unknown (no TLC command recorded)</td></tr>');
  });
});
