import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVARIANT_NAMES } from '../../src/systems/fencing/invariants.js';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { cfgInvariants } from '../../src/seam/evidence.js';
import { projectRoot } from '../../src/core/project-root.js';
import { MODEL_NAMES } from '../../src/registry/systems.js';
import { BASE_CONFIG_PATH, readCfg, SPEC_PATH } from '../../src/systems/fencing/tlc/config.js';

/**
 * The fencing spec's configs: every .cfg under tla/fencing/, except in a folder that holds a spec of its
 * own (tla/fencing/failover/: the failover model's module and configs, checked with that system).
 */
function cfgFiles(dir: string, top = true): string[] {
  const entries = readdirSync(dir);
  if (!top && entries.some((f) => f.endsWith('.tla'))) return [];
  return entries.flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return cfgFiles(p, false);
    return f.endsWith('.cfg') ? [relative(projectRoot, p)] : [];
  });
}

const manifest = loadManifest();
const tla = mutantsFor(manifest, 'tla', 'fencing');
const spec = readFileSync(join(projectRoot, SPEC_PATH), 'utf8');

describe('TLC configs and the mutant manifest', () => {
  it('every .cfg in tla/ is the base config or a manifest entry, and every manifest config exists', () => {
    const listed = new Set(tla.map((m) => m.layers.tla!.config!));
    const found = cfgFiles(join(projectRoot, 'tla/fencing'));
    for (const f of found) expect(f === BASE_CONFIG_PATH || listed.has(f), `${f} is neither the base config nor in mutants/manifest.json`).toBe(true);
    for (const f of listed) expect(found, `${f} is named by the manifest but missing`).toContain(f);
  });

  it('the base config drops nothing, has no symmetry, and checks every invariant', () => {
    const text = readFileSync(join(projectRoot, BASE_CONFIG_PATH), 'utf8');
    const cfg = readCfg(text);
    expect(cfg.dropped).toEqual([]);
    expect(cfg.bounds).toEqual({ pods: ['p1', 'p2', 'p3'], maxGen: 4 });
    expect(cfg.invariants).toEqual([...INVARIANT_NAMES]);
    expect(text.replace(/\\\*.*$/gm, '')).not.toMatch(/SYMMETRY/);
  });

  it('each mutant config drops exactly its named target and checks its expected invariant alone with TypeOK', () => {
    for (const m of tla) {
      const cfg = readCfg(readFileSync(join(projectRoot, m.layers.tla!.config!), 'utf8'));
      expect(cfg.dropped, m.id).toEqual([m.target]);
      expect(cfg.invariants, m.id).toEqual(['TypeOK', m.expectedInvariant]);
      expect(cfg.bounds, m.id).toEqual({ pods: ['p1', 'p2', 'p3'], maxGen: 4 });
    }
  });

  it('the spec defines every target as a named guard/effect and lists it as a mutation point', () => {
    const points = /MutationPoints == \{([^}]*)\}/.exec(spec)?.[1] ?? '';
    for (const m of tla) {
      expect(spec, `${m.target} definition`).toMatch(new RegExp(`^${m.target} ==`, 'm'));
      expect(points, `${m.target} in MutationPoints`).toContain(`"${m.target}"`);
      // The definition is switched by its own name, and no other definition reads that name.
      expect(spec.split(`Kept("${m.target}")`).length - 1, m.target).toBe(1);
    }
    for (const inv of INVARIANT_NAMES) expect(spec).toMatch(new RegExp(`^${inv} ==`, 'm'));
  });
});

/** The `Dropped` constant of a seam system's config. */
const droppedOf = (text: string): string[] => [...(/Dropped\s*=\s*\{([^}]*)\}/.exec(text)?.[1] ?? '').matchAll(/"(\w+)"/g)].map((x) => x[1]!);

describe("every system's TLC configs and the manifest", () => {
  for (const system of MODEL_NAMES.filter((n) => n !== 'fencing')) {
    const entries = mutantsFor(manifest, 'tla', system);
    it(`${system}: every manifest config exists, drops exactly its target and checks its expected invariant alone with TypeOK`, () => {
      expect(entries.length).toBeGreaterThan(0);
      for (const m of entries) {
        const text = readFileSync(join(projectRoot, m.layers.tla!.config!), 'utf8');
        expect(droppedOf(text), m.id).toEqual([m.target]);
        expect(cfgInvariants(text), m.id).toEqual(['TypeOK', m.expectedInvariant]);
      }
    });

    it(`${system}: every mutant config beside its entries' is a manifest entry's, or extra evidence <id>-<invariant>.cfg of one (same target)`, () => {
      const folder = dirname(entries[0]!.layers.tla!.config!);
      const dir = join(projectRoot, folder);
      const listed = new Map(entries.map((m) => [m.layers.tla!.config!, m]));
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.cfg'))) {
        const rel = `${folder}/${f}`;
        if (listed.has(rel)) continue;
        const extra = /^(\w+)-(\w+)\.cfg$/.exec(f);
        const of = extra ? entries.find((m) => m.id === extra[1]) : undefined;
        expect(of, `${rel} is neither in mutants/manifest.json nor <id>-<invariant>.cfg of an entry`).toBeDefined();
        const text = readFileSync(join(dir, f), 'utf8');
        expect(droppedOf(text), rel).toEqual([of!.target]);
        expect(cfgInvariants(text), rel).toEqual(['TypeOK', extra![2]]);
      }
    });
  }
});
