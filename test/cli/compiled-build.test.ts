/**
 * The bin runs the compiled CLI only when it was built from exactly the sources there
 * (bin/build-state.mjs): a copy of the real bin in a small project of its own, whose "source" and
 * "build" each print where they ran, edited the ways a checkout changes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { BUILD_DIR, sourceStamp, STAMP_FILE, staleReason } from '../../bin/build-state.mjs';

const SOURCE = "export async function main(argv: readonly string[]): Promise<number> {\n  process.stdout.write('from source ' + argv.join(' ') + '\\n');\n  return 0;\n}\n";
const BUILD = "export async function main(argv) {\n  process.stdout.write('from build ' + argv.join(' ') + '\\n');\n  return 0;\n}\n";

let root = '';
const at = (rel: string) => join(root, rel);
const write = (rel: string, text: string) => {
  mkdirSync(join(at(rel), '..'), { recursive: true });
  writeFileSync(at(rel), text);
};
/** What scripts/build.mjs leaves: the compiled module and, last, the stamp of the sources it read. */
const build = () => {
  write(`${BUILD_DIR}/src/cli/main.js`, BUILD);
  write(`${BUILD_DIR}/${STAMP_FILE}`, JSON.stringify({ files: sourceStamp(root) }));
};
const runBin = (env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [at('bin/fencecheck.mjs'), 'slot', 'x'], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.stderr).toBe('');
  return r.stdout.trim();
};
/** Moves a file's mtime by `deltaS` seconds, its content unchanged. */
const shiftMtime = (rel: string, deltaS: number) => {
  const s = statSync(at(rel));
  utimesSync(at(rel), s.atime, new Date(s.mtimeMs + deltaS * 1000));
};

beforeAll(() => {
  root = ownedTempDir('compiled-build');
  for (const f of ['bin/fencecheck.mjs', 'bin/build-state.mjs', 'scripts/build.mjs', 'tsconfig.json']) {
    mkdirSync(join(at(f), '..'), { recursive: true });
    copyFileSync(join(projectRoot, f), at(f));
  }
  symlinkSync(join(projectRoot, 'node_modules'), at('node_modules'));
  write('package.json', '{ "type": "module" }\n');
  write('src/cli/main.ts', SOURCE);
  write('models/m.ts', 'export const m = 1;\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.sequential('bin/fencecheck.mjs: the build, or the sources when the build is not theirs', () => {
  it('no build: the sources, through tsx', () => {
    expect(staleReason(root)).toMatch(/no build/);
    expect(runBin()).toBe('from source slot x');
  });

  it('a build of these sources: the build; FENCECHECK_FROM_SOURCE=1 still the sources', () => {
    build();
    expect(staleReason(root)).toBeNull();
    expect(runBin()).toBe('from build slot x');
    expect(runBin({ FENCECHECK_FROM_SOURCE: '1' })).toBe('from source slot x');
  });

  it('a source edited since: the edit runs', () => {
    write('src/cli/main.ts', SOURCE.replace('from source', 'from edited source'));
    expect(runBin()).toBe('from edited source slot x');
    write('src/cli/main.ts', SOURCE);
    build();
    expect(runBin()).toBe('from build slot x');
  });

  it('a later mtime alone, and an earlier one (a checkout of an older commit): the sources', () => {
    shiftMtime('models/m.ts', +2);
    expect(staleReason(root)).toMatch(/models\/m\.ts changed/);
    build();
    shiftMtime('models/m.ts', -60);
    expect(runBin()).toBe('from source slot x');
    build();
    expect(runBin()).toBe('from build slot x');
  });

  it('content of another size under the recorded mtime (a tool that keeps mtimes): caught by its size', () => {
    write('models/m.ts', 'export const m = 22;\n');
    // The stamp claims the file's present mtime, as if the rewrite had kept the one it had.
    const stampFile = at(`${BUILD_DIR}/${STAMP_FILE}`);
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { files: Record<string, [number, number]> };
    stamp.files['models/m.ts']![0] = statSync(at('models/m.ts')).mtimeMs;
    writeFileSync(stampFile, JSON.stringify(stamp));
    expect(staleReason(root)).toMatch(/models\/m\.ts changed/);
    expect(runBin()).toBe('from source slot x');
    write('models/m.ts', 'export const m = 1;\n');
    build();
  });

  it('a source added, or removed: the sources', () => {
    write('src/extra.ts', 'export {};\n');
    expect(staleReason(root)).toMatch(/added or removed/);
    rmSync(at('src/extra.ts'));
    expect(runBin()).toBe('from build slot x');
    rmSync(at('models/m.ts'));
    expect(runBin()).toBe('from source slot x');
    write('models/m.ts', 'export const m = 1;\n');
    build();
  });

  it('a test file, or a file that is not TypeScript, is not compiled and changes nothing', () => {
    write('src/cli/main.test.ts', 'export {};\n');
    write('src/notes.md', 'x\n');
    expect(runBin()).toBe('from build slot x');
  });

  it('what the build is made with changed (tsconfig.json): the sources', () => {
    shiftMtime('tsconfig.json', +2);
    expect(staleReason(root)).toMatch(/tsconfig\.json changed/);
  });
});
