/**
 * No planning-document ids in what a user reads: a gate id (`G2`, `pre-G3`), a seed number
 * (`seed 000`, `seed 003`), an issue number (`issue 17`) or a seed's phase (`"Phase 1"`, `phase 2`)
 * in any command's help or summary, the verify stage catalogue, the outputs of the cluster client
 * matrix, the limiter and the gate, or the rendered verify reports (Markdown, HTML, JUnit, JSON).
 * The docs may cite them; outputs say what a thing is.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { commandModules } from '../../src/cli/registry.js';
import { GATE_RULES } from '../../src/systems/fencing/gate/rules.js';
import { clusterMatrixReport } from '../../src/systems/fencing/cluster-matrix/report.js';
import { limiterText } from '../../src/systems/limiter/report.js';
import { renderHtml } from '../../src/report/html.js';
import { junitXml } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildView } from '../../src/report/view.js';
import { loadReportTraces } from '../../src/report/write.js';
import { STAGES } from '../../src/verify/stages.js';
import type { StageOutcome } from '../../src/report/verify-doc.js';
import { fixtureReport, fixtureRoot, LIMITER_RUNS } from './fixtures.js';

// Gate ids are capitals (the verify stage and command are `cluster-matrix`).
const GATE_IDS = /\bG\d\b|\bpre-G\d/;
const SEED_AND_ISSUE_IDS = /\bseed 0\d\d\b|\bissue \d+\b|\bphase \d\b/i;

/** The lines of `text` that name a planning document's id. */
const offending = (text: string) => text.split('\n').filter((l) => GATE_IDS.test(l) || SEED_AND_ISSUE_IDS.test(l));

describe('no planning-document ids in outputs', () => {
  it('the pattern finds what it must', () => {
    expect(offending('Seed 003, gate G2: each surface\npre-G3 check\nissue 17\nseed "Phase 1"\nfine: M2, L3, P5, R1, 2 shards')).toEqual([
      'Seed 003, gate G2: each surface',
      'pre-G3 check',
      'issue 17',
      'seed "Phase 1"',
    ]);
  });

  it("every command's help and summary, and the verify stage catalogue", async () => {
    for (const [name, load] of Object.entries(commandModules)) {
      const { command } = await load();
      expect({ name, lines: offending(`${command.summary}\n${command.help}`) }).toEqual({ name, lines: [] });
    }
    expect(offending(STAGES.map((s) => s.what).join('\n'))).toEqual([]);
  });

  it('the cluster client matrix, the limiter and the gate say what they are', () => {
    const row = {
      name: 'pubsub',
      surface: 'Sharded pub/sub',
      variant: '',
      topology: 'cluster 3 shards',
      durationMs: 10,
      errors: { status: 'passed' as const },
      silentlyWrong: { status: 'not-run' as const, reason: 'x' },
      figures: {},
      notes: [],
    };
    expect(offending(JSON.stringify(clusterMatrixReport([row], new Date(0), 10)))).toEqual([]);
    expect(offending(limiterText(LIMITER_RUNS, 'summary'))).toEqual([]);
    const keyslot = GATE_RULES.find((r) => r.name === 'EnterCompatible_KeyslotPair')!;
    expect(offending(String(keyslot.check({ keyslot: null } as Parameters<typeof keyslot.check>[0])))).toEqual([]);
  });

  it('the verify reports of a run with every kind of section', () => {
    const row = {
      name: 'registry',
      surface: 'Registry discovery',
      variant: '',
      topology: 'cluster 3 shards',
      durationMs: 10,
      errors: { status: 'passed' as const },
      silentlyWrong: { status: 'passed' as const },
      figures: {},
      notes: [],
    };
    const matrix = clusterMatrixReport([row], new Date(0), 10);
    const o: StageOutcome = {
      stage: 'cluster-matrix',
      command: ['cluster-matrix', '--json'],
      status: 'passed',
      allowedNotRun: false,
      exitCode: 0,
      signal: null,
      startedAt: matrix.startedAt,
      durationMs: 10,
      summary: matrix.summary,
      leftoverProcesses: 0,
      report: matrix,
    };
    const base = fixtureReport({ conform: 'M1' });
    const r = { ...base, stages: [...base.stages, o] };
    const view = buildView(r, loadReportTraces(r, fixtureRoot()));
    expect(view.sections.map((s) => s.id)).toEqual(expect.arrayContaining(['conformance', 'cluster-matrix', 'stage-limiter', 'stage-parity', 'tlc']));
    for (const [what, text] of [
      ['markdown', renderMarkdown(view)],
      ['html', renderHtml(view)],
      ['junit', junitXml(r)],
      ['json', JSON.stringify(r)],
    ] as const)
      expect({ what, lines: offending(text) }).toEqual({ what, lines: [] });
  });
});

describe('no planning-document ids where a reader looks for a topic', () => {
  const tracked = (glob: string) => execSync(`git ls-files '${glob}'`, { cwd: projectRoot, encoding: 'utf8' }).trim().split('\n').filter(Boolean);

  it("in a doc's headings (docs/decisions.md keeps its history in the sections' bodies)", () => {
    const found = tracked('*.md').flatMap((f) =>
      readFileSync(join(projectRoot, f), 'utf8')
        .split('\n')
        .filter((l) => /^#+ /.test(l) && SEED_AND_ISSUE_IDS.test(l))
        .map((l) => `${f}: ${l}`),
    );
    expect(found).toEqual([]);
  });

  it("in a test's title", () => {
    const title = /\b(?:it|describe|test)(?:\.\w+)*\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g;
    const found = tracked('test/*.ts').flatMap((f) => [...readFileSync(join(projectRoot, f), 'utf8').matchAll(title)].filter((m) => SEED_AND_ISSUE_IDS.test(m[2]!)).map((m) => `${f}: ${m[2]}`));
    expect(found).toEqual([]);
  });
});
