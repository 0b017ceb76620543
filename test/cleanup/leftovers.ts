/**
 * What a test run left behind in its temporary directory: `fencecheck-*` folders and files (other
 * than the harness's own registry root), records and node folders still in that root, and
 * valkey-server processes working inside the directory. Read by the vitest global teardown
 * (test/cleanup/global-setup.ts), which fails the run when anything is found.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { serversWorkingUnder } from '../../src/valkey/registry.js';

export interface Leftovers {
  /** `fencecheck-*` entries of the directory that are not the registry root. */
  readonly entries: readonly string[];
  /** Server records and node folders still in the registry root. */
  readonly inRoot: readonly string[];
  /** valkey-server processes whose working folder lies in the directory. */
  readonly servers: readonly { readonly pid: number; readonly cwd: string }[];
  /** File systems still mounted inside the directory (a test's tmpfs). */
  readonly mounts: readonly string[];
}

/** Mount points inside `dir` (from /proc/self/mounts; none where it can't be read). */
export function mountsUnder(dir: string): string[] {
  try {
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => (l.split(' ')[1] ?? '').replace(/\\040/g, ' '))
      .filter((m) => m.startsWith(`${dir}/`));
  } catch {
    return [];
  }
}

/** What lies in `dir` that a run should have removed; `registryRoot` is the harness's root in it. */
export function findLeftovers(dir: string, registryRoot: string): Leftovers {
  const names = existsSync(dir) ? readdirSync(dir) : [];
  const entries = names.filter((n) => n.startsWith('fencecheck-') && n !== basename(registryRoot)).map((n) => join(dir, n));
  const inRoot: string[] = [];
  for (const sub of ['registry', 'nodes']) {
    const d = join(registryRoot, sub);
    if (existsSync(d)) inRoot.push(...readdirSync(d).map((n) => join(d, n)));
  }
  return { entries, inRoot, servers: serversWorkingUnder(dir), mounts: mountsUnder(dir) };
}

export const isClean = (l: Leftovers): boolean => l.entries.length === 0 && l.inRoot.length === 0 && l.servers.length === 0 && l.mounts.length === 0;

/** One line per thing left, for the teardown's message. */
export function leftoverLines(l: Leftovers): string[] {
  return [
    ...l.entries.map((e) => `temporary entry not removed: ${e} (make temporary folders with ownedTempDir, src/core/temp-dir.ts)`),
    ...l.inRoot.map((e) => `left in the harness's registry root: ${e}`),
    ...l.servers.map((s) => `valkey-server still running: pid ${s.pid}, working in ${s.cwd} (killed now)`),
    ...l.mounts.map((m) => `file system still mounted: ${m} (detached now)`),
  ];
}
