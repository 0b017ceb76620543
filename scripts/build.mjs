#!/usr/bin/env node
// Compiles the TypeScript the CLI runs into .build/ (git-ignored) with tsx's own esbuild, one file
// per module, so bin/fencecheck.mjs starts without transpiling (docs/decisions.md, "A build users
// never see"). Type checking stays `npm run typecheck`'s job. Run by scripts/setup; safe to re-run.
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILD_DIR, compiledSources, sourceStamp, STAMP_FILE } from '../bin/build-state.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
// The esbuild tsx itself transpiles with: the build's output is what the development path runs.
const require = createRequire(import.meta.url);
const esbuild = createRequire(require.resolve('tsx'))('esbuild');

const out = join(root, BUILD_DIR);
// Stamped before compiling: a source edited during the build leaves the build stale, not wrong.
const stamp = sourceStamp(root);
const entries = compiledSources(root);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const t0 = performance.now();
try {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: out,
    outbase: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    tsconfig: join(root, 'tsconfig.json'),
    // As tsx: class and function names kept (messages and reports name them), source maps for stacks.
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    outExtension: { '.js': '.js' },
    logLevel: 'error',
  });
} catch (err) {
  rmSync(out, { recursive: true, force: true });
  process.stderr.write(`build: compiling failed, the CLI keeps running the sources through tsx: ${err instanceof Error ? err.message.split('\n')[0] : err}\n`);
  process.exit(2);
}
// --help lists every command's summary: recorded now, so it need not load every command at each start.
const { writeCommandSummaries } = await import(pathToFileURL(join(out, 'src/cli/summaries.js')).href);
await writeCommandSummaries();
writeFileSync(join(out, STAMP_FILE), `${JSON.stringify({ builtAt: new Date().toISOString(), files: stamp })}\n`);
process.stdout.write(`build: ${entries.length} modules compiled into ${BUILD_DIR}/ in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
