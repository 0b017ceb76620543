import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { loadSystemManifest, SYSTEMS } from '../../src/registry/systems.js';
import { shortestSystemCounterexample } from '../../src/seam/explore.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { pathToTrace } from '../../src/seam/trace.js';
import { buildView } from '../../src/report/view.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html.js';
import { fixtureReport } from './fixtures.js';
it('renders', async () => {
  const manifest = loadSystemManifest();
  const traces = new Map();
  for (const [name, id] of [['pause', 'P1'], ['init-limiter', 'I1']] as const) {
    const entry = manifest.mutants.find((m) => m.id === id)!;
    const sys = await mutatedSystem(await SYSTEMS[name]!(), entry);
    traces.set(`reports/traces/${name}.json`, { trace: JSON.parse(JSON.stringify(pathToTrace(sys, shortestSystemCounterexample(sys, entry.expectedInvariant)!, { mutant: id, violated: entry.expectedInvariant }))) });
  }
  const v = buildView(fixtureReport(), traces);
  writeFileSync('/tmp/wpa-try/out.md', renderMarkdown(v));
  writeFileSync('/tmp/wpa-try/out.html', renderHtml(v));
});
