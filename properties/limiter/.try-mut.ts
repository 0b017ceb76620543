import { startTopology } from '../../src/valkey/index.js';
import { runLimiterProperty, replayHint } from './property.js';
const t = await startTopology({ kind: 'standalone' }, { provider: 'native' });
try {
  for (const id of process.argv.slice(3)) {
    const patch = (await import(`../../mutants/limiter/${id}.ts`)).default;
    const t0 = Date.now();
    const r = await runLimiterProperty({ topology: t, numRuns: Number(process.argv[2]), patch });
    console.log(id, r.passed ? 'SURVIVED' : r.violated, r.numRuns, replayHint(r), Date.now() - t0, 'ms', r.message?.slice(0, 300));
  }
} finally { await t.stop(); }
