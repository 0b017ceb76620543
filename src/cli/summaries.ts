/**
 * The one-line summary of every command, for `fencecheck --help`. Loading every command to read
 * them costs the whole program (1.5 s of CPU through tsx); the build records them once
 * (scripts/build.mjs calls writeCommandSummaries), so the compiled CLI's --help reads one file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR, projectRoot, runningFromBuild } from '../core/project-root.js';
import { commandModules, loadCommand } from './registry.js';

const SUMMARIES_FILE = join(projectRoot, BUILD_DIR, 'commands.json');

/** Every command's summary, by loading each, in the registry's order (a command not there is left out). */
export async function loadCommandSummaries(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(commandModules)) {
    const cmd = await loadCommand(name);
    if (cmd) out[name] = cmd.summary;
  }
  return out;
}

/** What the build recorded, when this process runs the build and the record names the registry's commands. */
function recordedSummaries(): Record<string, string> | undefined {
  if (!runningFromBuild) return undefined;
  try {
    const recorded = JSON.parse(readFileSync(SUMMARIES_FILE, 'utf8')) as Record<string, string>;
    const names = Object.keys(commandModules);
    return names.every((n) => typeof recorded[n] === 'string') ? recorded : undefined;
  } catch {
    return undefined;
  }
}

export async function commandSummaries(): Promise<Record<string, string>> {
  return recordedSummaries() ?? loadCommandSummaries();
}

/** Called by the build, from the compiled CLI: records the summaries beside it. */
export async function writeCommandSummaries(): Promise<number> {
  const summaries = await loadCommandSummaries();
  writeFileSync(SUMMARIES_FILE, `${JSON.stringify(summaries, null, 1)}\n`);
  return Object.keys(summaries).length;
}
