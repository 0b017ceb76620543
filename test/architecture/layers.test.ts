/**
 * The architecture, checked: layers import only downward, no cycle, no system imports another
 * (.dependency-cruiser.cjs, run by dependency-cruiser on the real tree); and outside a system's own
 * folders and the registry no source file names a system (names.ts). Each rule is also shown to turn
 * red on a small tree that breaks it on purpose.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import { projectRoot } from '../../src/core/project-root.js';
import { PACKAGES, SYSTEM_NAMES } from '../../src/registry/systems.js';
import { systemNamesIn } from './names.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const require = createRequire(import.meta.url);
const config = require(join(projectRoot, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: Record<string, unknown> };
const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

async function violations(baseDir: string, roots: readonly string[]): Promise<{ rule: string; from: string; to: string }[]> {
  const out: IReporterOutput = await cruise([...roots], { ...config.options, ruleSet: { forbidden: config.forbidden }, baseDir, validate: true, outputType: 'json' } as never);
  const doc = (typeof out.output === 'string' ? JSON.parse(out.output) : out.output) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return doc.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

/** A scratch tree of .ts files: path → its imports (relative specifiers). */
function tree(files: Readonly<Record<string, readonly string[]>>): string {
  const dir = ownedTempDir('layers');
  temps.push(dir);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${imports.map((s, i) => `import * as m${i} from '${s}';`).join('\n')}\nexport const x = 1;\n`);
  }
  return dir;
}

describe('the dependency rules', () => {
  it('hold on the project: no upward import, no cycle, no system importing another', async () => {
    const found = await violations(projectRoot, ['src', 'models', 'mutants', 'properties', 'bench']);
    expect(found).toEqual([]);
  }, 60_000);

  it('turn red on an upward import (core → cli), a cycle, a system importing another, and the seam importing a system', async () => {
    const dir = tree({
      'src/core/a.ts': ['../cli/main.js'],
      'src/cli/main.ts': [],
      'src/valkey/x.ts': ['./y.js'],
      'src/valkey/y.ts': ['./x.js'],
      'src/systems/pause/p.ts': ['../fencing/f.js'],
      'src/systems/fencing/f.ts': [],
      'src/seam/s.ts': ['../systems/fencing/f.js'],
    });
    const found = await violations(dir, ['src']);
    const rules = new Set(found.map((v) => `${v.rule}: ${v.from} → ${v.to}`));
    expect(rules).toContain('core-imports-only-downward: src/core/a.ts → src/cli/main.ts');
    expect(rules).toContain('no-circular: src/valkey/x.ts → src/valkey/y.ts');
    expect(rules).toContain('no-system-imports-another: src/systems/pause/p.ts → src/systems/fencing/f.ts');
    expect(rules).toContain('seam-imports-only-downward: src/seam/s.ts → src/systems/fencing/f.ts');
    // A system's own folders import each other freely.
    expect(await violations(tree({ 'src/systems/pause/p.ts': ['../../../models/pause/m.js'], 'models/pause/m.ts': [] }), ['src', 'models'])).toEqual([]);
  }, 60_000);
});

describe('system names', () => {
  const names = [...new Set([...SYSTEM_NAMES, ...PACKAGES.map((p) => p.name)])];

  it("appear in no source or bench file outside the systems' own folders and the registry", () => {
    // A system's own: src/systems/<package>/ and bench/<package>/ (its bench sections and stability items).
    const own = new RegExp(`^(src/(systems|registry)|bench/(${PACKAGES.map((p) => p.name).join('|')}))/`);
    const files = execSync("git ls-files 'src/*.ts' 'bench/*.ts'", { cwd: projectRoot, encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((f) => !own.test(f));
    const found = files.flatMap((f) => systemNamesIn(join(projectRoot, f), names)).map((x) => `${x.file.slice(projectRoot.length + 1)}:${x.line}: ${x.text}`);
    expect(found).toEqual([]);
  });

  it('are found in an import, a literal, an identifier and a path, never in a comment or a Valkey word', () => {
    const dir = ownedTempDir('names');
    temps.push(dir);
    const f = join(dir, 'x.ts');
    writeFileSync(
      f,
      [
        "import { a } from '../systems/pause/keys.js';",
        "const s = 'fencing';",
        'const t = pauseSystem();',
        '// the fencing system, described',
        "await c.call('CLIENT', 'PAUSE', '10');",
        'const clientPauseMs = 3;',
        "const dirs = ['src/systems/limiter/lua'];",
        "const spec = join(root, 'tla/pause/Pause.tla');",
        "spawn(node, ['bench/init-limiter/server.ts']);",
        "const d = 'evidence/tlc/failover';",
        "const ok = 'src/seam/tour/entry.ts';",
      ].join('\n'),
    );
    expect(systemNamesIn(f, names).map((x) => x.line)).toEqual([1, 2, 3, 7, 8, 9, 10]);
  });
});
