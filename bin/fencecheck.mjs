#!/usr/bin/env node
// Runs the compiled CLI (.build/, made by scripts/setup) when it was built from exactly these
// sources; otherwise — no build, a source edited since, FENCECHECK_FROM_SOURCE=1 — the TypeScript
// through tsx's ESM loader, so an edit is never run stale (docs/decisions.md, "A build users never see").
import { fileURLToPath } from 'node:url';
import { staleReason } from './build-state.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
let main;
if (process.env.FENCECHECK_FROM_SOURCE !== '1' && staleReason(root) === null) {
  ({ main } = await import('../.build/src/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
