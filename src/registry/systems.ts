/**
 * The one list of system packages. A new system adds its package here — one line — and nothing else
 * outside its own folders. Everything generic asks this module which systems exist.
 */
import { loadManifest, type MutantManifest } from '../core/manifest.js';
import type { AnySystem, SystemEntry, SystemPackage } from '../seam/package.js';
import { fencingPackage } from '../systems/fencing/package.js';
import { initLimiterPackage } from '../systems/init-limiter/package.js';
import { limiterPackage } from '../systems/limiter/package.js';
import { pausePackage } from '../systems/pause/package.js';

export type { AnySystem, SystemEntry, SystemPackage };

export const PACKAGES: readonly SystemPackage[] = [fencingPackage, limiterPackage, pausePackage, initLimiterPackage];

/** The folders of the project's own Lua scripts, every package's (`fencecheck lua-check`'s default). */
export const LUA_SCRIPT_DIRS: readonly string[] = PACKAGES.flatMap((p) => p.luaScripts ?? []);

/** Every system (a name of the manifest and of --system), in package order, with its package. */
export const SYSTEM_ENTRIES: readonly (SystemEntry & { readonly package: SystemPackage })[] = PACKAGES.flatMap((p) => p.systems.map((s) => ({ ...s, package: p })));

export const SYSTEM_NAMES: readonly string[] = SYSTEM_ENTRIES.map((s) => s.name);

/** The systems with a TLA+ model on the seam, by name (each loads lazily). */
export const SYSTEMS: Readonly<Record<string, () => Promise<AnySystem>>> = Object.fromEntries(SYSTEM_ENTRIES.flatMap((s) => (s.model ? [[s.name, s.model]] : [])));

export const MODEL_NAMES: readonly string[] = Object.keys(SYSTEMS);

/** The systems with an exhaustive tour of their real code (`fencecheck conform`), in package order. */
export const TOUR_NAMES: readonly string[] = SYSTEM_ENTRIES.filter((s) => s.tour !== undefined && s.model !== undefined).map((s) => s.name);

export function systemEntry(name: string): (SystemEntry & { readonly package: SystemPackage }) | undefined {
  return SYSTEM_ENTRIES.find((s) => s.name === name);
}

/** The package a system belongs to. */
export function packageOf(system: string): SystemPackage | undefined {
  return systemEntry(system)?.package;
}

/** Per system, the names its manifest entries may expect (loaded only for the systems asked). */
export async function expectedNames(systems: Iterable<string>): Promise<Record<string, readonly string[]>> {
  const out: Record<string, readonly string[]> = {};
  for (const s of new Set(systems)) {
    const e = systemEntry(s);
    if (e) out[s] = await e.expectedNames();
  }
  return out;
}

/** mutants/manifest.json, its systems checked against the registry (ManifestError otherwise). */
export function loadSystemManifest(path?: string): MutantManifest {
  return path === undefined ? loadManifest(undefined, SYSTEM_NAMES) : loadManifest(path, SYSTEM_NAMES);
}
