import { renderTable } from '../src/core/table.js';
import { processTreeCpu } from '../src/verify/watchdog.js';
import { envList, type BenchSection } from './section.js';
import { runVitest as run } from './vitest-run.js';

/**
 * `npm run bench -- tiers`: what the quick tier holds, measured. Every file vitest's quick tier
 * runs (`vitest list --filesOnly`: the config's own include and the deep files it leaves out) runs
 * alone, one after another, as `vitest run FILE`; per file its wall time, its CPU (the vitest
 * process and what it reaped: its workers, their servers) and its tests' summary; the files over
 * FILE_BUDGET_S of CPU are named, the heaviest first: a figure to act on (move the file to the deep tier,
 * test/support/tiers.ts, or make it lighter), so a new heavy test is seen before it slows `npm test`.
 * FENCECHECK_BENCH_TIERS_FILES=a,b measures only the files whose path contains one of them.
 */
/**
 * A quick-tier file's budget, in seconds of CPU (vitest's own start, about 3 s, included). CPU, not
 * wall: it is what a file takes from the other files of `npm test` on 2 cores, and it moves far
 * less than wall time with the machine's load (a 4-test unit file: 15–23 s wall, 3.1–3.5 s CPU at load 20).
 */
const FILE_BUDGET_S = 15;

interface FileCost {
  readonly file: string;
  readonly wallS: number;
  readonly cpuS: number | null;
  readonly summary: string;
  readonly code: number | null;
}

/** The quick tier's files, as vitest itself lists them. */
async function quickTierFiles(): Promise<string[]> {
  const r = await run(['list', '--filesOnly']);
  const files = r.out.split('\n').filter((l) => /\.test\.ts$/.test(l.trim()));
  if (r.code !== 0 || files.length === 0) throw new Error(`bench tiers: 'vitest list --filesOnly' exited ${r.code}: ${r.out.trim().split('\n').slice(-1)[0] ?? ''}`);
  return files.map((f) => f.trim()).sort();
}

const cpuNowS = (): number | null => {
  const c = processTreeCpu();
  return c === null ? null : (c.userMs + c.systemMs) / 1000;
};

async function measure(file: string): Promise<FileCost> {
  const cpu0 = cpuNowS();
  const t0 = performance.now();
  const r = await run(['run', file]);
  const wallS = (performance.now() - t0) / 1000;
  const cpu1 = cpuNowS();
  const summary = /^tests: (.+)$/m.exec(r.out)?.[1] ?? `vitest exited ${r.code}`;
  return { file, wallS, cpuS: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0, summary, code: r.code };
}

export const section: BenchSection = {
  name: 'tiers',
  title: `the quick tier file by file: each file's CPU and wall time alone, the files over ${FILE_BUDGET_S} s of CPU named`,
  async run(print) {
    const only = envList('FENCECHECK_BENCH_TIERS_FILES');
    const files = (await quickTierFiles()).filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
    print(`${files.length} quick-tier files, one vitest run each, one after another (the machine's load is its own: compare files within this run)`);
    const costs: FileCost[] = [];
    for (const [i, f] of files.entries()) {
      const c = await measure(f);
      costs.push(c);
      print(`[${i + 1}/${files.length}] ${f}: ${c.cpuS === null ? '?' : c.cpuS.toFixed(1)} s CPU, ${c.wallS.toFixed(1)} s wall · ${c.summary}`);
    }
    // The heaviest first, by CPU (by wall where /proc gives no CPU).
    const cost = (c: FileCost) => c.cpuS ?? c.wallS;
    const byCost = [...costs].sort((a, b) => cost(b) - cost(a));
    const fmt = (x: number | null) => (x === null ? '?' : x.toFixed(1));
    print(
      renderTable(
        ['file', 'CPU s', 'wall s', 'tests'],
        byCost.map((c) => [c.file, fmt(c.cpuS), fmt(c.wallS), c.summary]),
        { alignRight: [1, 2] },
      ),
    );
    const wall = costs.reduce((a, c) => a + c.wallS, 0);
    const cpu = costs.every((c) => c.cpuS !== null) ? costs.reduce((a, c) => a + (c.cpuS ?? 0), 0) : null;
    print(`sum: ${wall.toFixed(0)} s wall, ${fmt(cpu)} s CPU over ${costs.length} files (npm test runs them 3 at a time; on 2 cores its wall is about the CPU sum / 2)`);
    const over = byCost.filter((c) => cost(c) > FILE_BUDGET_S);
    print(
      over.length === 0
        ? `no file over the budget of ${FILE_BUDGET_S} s of CPU`
        : `over the budget of ${FILE_BUDGET_S} s of CPU (${over.length}): ${over.map((c) => `${c.file} ${cost(c).toFixed(0)} s`).join(', ')}`,
    );
    const red = costs.filter((c) => c.code !== 0);
    if (red.length > 0) print(`not green alone (${red.length}): ${red.map((c) => `${c.file} (${c.summary})`).join(', ')}`);
  },
};
