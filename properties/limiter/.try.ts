import { startTopology } from '../../src/valkey/index.js';
import { runLimiterProperty, replayHint } from '../../properties/limiter/property.js';
const t = await startTopology({ kind: (process.argv[2] ?? 'standalone') as 'standalone' });
try {
  const r = await runLimiterProperty({ topology: t, numRuns: Number(process.argv[3] ?? 50) });
  console.log(JSON.stringify({ ...r, counterexample: r.counterexample }, null, 1), replayHint(r));
} finally { await t.stop(); }
