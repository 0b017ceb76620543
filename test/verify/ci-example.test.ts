import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';

// The CI example must keep pointing at things that exist: a renamed script or a moved report fails here.
describe('examples/ci/github-actions.yml', () => {
  const yml = readFileSync(resolve(projectRoot, 'examples/ci/github-actions.yml'), 'utf8');
  it('installs Java and Valkey, runs the setup scripts and verify, uploads reports and JUnit', () => {
    expect(yml).toMatch(/openjdk-\d+-jre-headless/);
    expect(yml).toMatch(/valkey-server/);
    for (const script of yml.match(/bash (scripts\/[\w-]+)/g) ?? []) expect(existsSync(resolve(projectRoot, script.slice(5))), script).toBe(true);
    expect(yml).toContain('bash scripts/setup\n');
    expect(yml).toContain('node bin/fencecheck.mjs verify --out reports');
    expect(yml).toMatch(/path: reports\/junit\.xml/);
    expect(yml).toMatch(/reports\/verify\.html/);
    expect(yml.match(/if: always\(\)/g)?.length).toBeGreaterThanOrEqual(2);
    expect(yml).not.toMatch(/\t/);
  });
});

// The matrix example: four verify parts, a merge job that always runs and gates.
describe('examples/ci/github-actions-matrix.yml', () => {
  const yml = readFileSync(resolve(projectRoot, 'examples/ci/github-actions-matrix.yml'), 'utf8');
  it('runs verify --shard i/4 in a 4-job matrix and merges the parts in a job that always runs', () => {
    expect(yml).toMatch(/shard: \[1, 2, 3, 4\]/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(yml).toContain('node bin/fencecheck.mjs verify --shard ${{ matrix.shard }}/4 --out reports');
    expect(yml).toContain('node bin/fencecheck.mjs merge parts/fencecheck-shard-*/verify.json --out reports/merged');
    expect(yml).toMatch(/merge:\n\s+needs: shard\n\s+if: always\(\)/);
    for (const script of yml.match(/bash (scripts\/[\w-]+)/g) ?? []) expect(existsSync(resolve(projectRoot, script.slice(5))), script).toBe(true);
    expect(yml).not.toMatch(/\t/);
  });
});
