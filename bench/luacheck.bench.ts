import { median, percentile } from '../src/core/stats.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchSection } from './section.js';
import { projectRoot } from '../src/core/project-root.js';
import { checkLuaSource } from '../src/luacheck/check.js';
import { committedSnapshot } from '../src/luacheck/keyspecs.js';

/**
 * `fencecheck lua-check` speed: the median time to check one 2 KB script (target: under 5 ms).
 * The scripts are the fixture corpus (test/luacheck/corpus), each repeated in `do … end` blocks
 * until it is at least 2 KB, so every idiom of the corpus is in the measured mix.
 */
const TARGET_BYTES = 2048;
const ROUNDS = 30;

function twoKilobyteScripts(): { name: string; source: string }[] {
  const dir = join(projectRoot, 'test/luacheck/corpus');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.lua') && f !== 'with-include.lua')
    .sort()
    .map((name) => {
      const body = readFileSync(join(dir, name), 'utf8').replace(/^#![^\n]*\n/, '');
      let source = '';
      while (source.length < TARGET_BYTES) source += `do\n${body}end\n`;
      return { name, source };
    });
}

export const section: BenchSection = {
  name: 'luacheck',
  title: 'lua-check: milliseconds per 2 KB script (median; target < 5 ms)',
  async run(print) {
    const snapshot = committedSnapshot();
    const scripts = twoKilobyteScripts();
    for (const s of scripts) checkLuaSource(s.source, { snapshot }); // warm up the JIT
    const perScript = scripts.map((s) => {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const t0 = performance.now();
        checkLuaSource(s.source, { snapshot });
        times.push(performance.now() - t0);
      }
      return { name: s.name, bytes: s.source.length, ms: median(times) };
    });
    const all = perScript.map((p) => p.ms);
    const slowest = perScript.reduce((a, b) => (b.ms > a.ms ? b : a));
    const bytes = perScript.reduce((n, p) => n + p.bytes, 0) / perScript.length;
    print(`${perScript.length} scripts of ${Math.round(bytes)} bytes on average, ${ROUNDS} rounds each`);
    print(`median ${median(all).toFixed(2)} ms per script · p90 ${percentile(all, 90).toFixed(2)} ms · slowest ${slowest.ms.toFixed(2)} ms (${slowest.name})`);
    print(`${median(all) < 5 ? 'within' : 'OVER'} the 5 ms target`);
  },
};
