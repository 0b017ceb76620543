import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MODULE_EXT } from './package-module.js';
import { PACKAGES } from '../src/registry/systems.js';
import type { BenchSection } from './section.js';

type SectionLoader = () => Promise<{ section: BenchSection }>;

/** The sections over every system (or none), in print order. Each module exports `section`. */
const GENERIC: Readonly<Record<string, SectionLoader>> = {
  cli: () => import('./cli.bench.js'),
  foundation: () => import('./foundation.bench.js'),
  verify: () => import('./verify.bench.js'),
  'verify-shards': () => import('./verify-shards.bench.js'),
  luacheck: () => import('./luacheck.bench.js'),
  stability: () => import('./stability.bench.js'),
  signals: () => import('./signals.bench.js'),
  timing: () => import('./timing.bench.js'),
  tiers: () => import('./tiers.bench.js'),
};

/**
 * File names of a system's sections: `<section>.bench.ts`, or `<section>.named.bench.ts` for one that
 * runs only when named (`.js` in the build setup compiles into .build/).
 */
const SECTION_FILE = new RegExp(`^(.+?)(\\.named)?\\.bench\\${MODULE_EXT}$`);

/**
 * A system's own sections live in its package's folder, bench/<package>/, found through the registry
 * (src/registry/systems.ts) as everything else of a system is: a new system adds a section there and
 * names no list.
 */
function packageSections(): { sections: Record<string, SectionLoader>; namedOnly: string[] } {
  const sections: Record<string, SectionLoader> = {};
  const namedOnly: string[] = [];
  for (const p of PACKAGES) {
    const dir = join(import.meta.dirname, p.name);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      const m = SECTION_FILE.exec(file);
      if (!m) continue;
      const url = pathToFileURL(join(dir, file)).href;
      sections[m[1]!] = () => import(url) as Promise<{ section: BenchSection }>;
      if (m[2]) namedOnly.push(m[1]!);
    }
  }
  return { sections, namedOnly };
}

const own = packageSections();

/** Every benchmark section: the generic ones, then each package's, in registry order. */
export const benchSections: Readonly<Record<string, SectionLoader>> = { ...GENERIC, ...own.sections };

/** Sections that run only when named (`npm run bench -- stability`): they take an hour, not minutes. */
export const NAMED_ONLY: readonly string[] = ['stability', 'signals', 'timing', 'verify-shards', 'tiers', ...own.namedOnly];
