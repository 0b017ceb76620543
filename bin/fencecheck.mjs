#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's ESM loader, so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
