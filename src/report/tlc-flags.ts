/**
 * What TLC was told to do, read from its recorded command line (a TLC block's `command`):
 * an auditor must see that deadlock checking was off (`-deadlock`), how many workers ran, and any
 * other flag that changes what "no error" means.
 */
import type { TlcFlags } from './verify-doc.js';

/** TLC options that take a value (the value is not a flag of its own). */
const WITH_VALUE = new Set([
  '-workers',
  '-metadir',
  '-config',
  '-dump',
  '-depth',
  '-seed',
  '-fp',
  '-fpbits',
  '-fpmem',
  '-maxSetSize',
  '-coverage',
  '-checkpoint',
  '-dumpTrace',
  '-simulate',
  '-userFile',
  '-recover',
]);

export function tlcFlags(command: string): TlcFlags | undefined {
  const words = command.trim().split(/\s+/);
  const main = words.findIndex((w) => w === 'tlc2.TLC' || w.endsWith('/tlc2.TLC'));
  if (main < 0) return undefined;
  const jvm = words.slice(0, main).filter((w) => /^-X|^-D/.test(w));
  const args = words.slice(main + 1);
  const flags: string[] = [];
  let workers: string | undefined;
  let dump: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) continue;
    // `-dump FILE` or `-dump FORMATS FILE` (dot,actionlabels): the formats are a word of letters and commas.
    const takes = a === '-dump' && /^[a-z,]+$/.test(args[i + 1] ?? '') && args[i + 2] !== undefined && !args[i + 2]!.startsWith('-') ? 2 : WITH_VALUE.has(a) ? 1 : 0;
    const value = args.slice(i + 1, i + 1 + takes).join(' ');
    if (a === '-workers') workers = value;
    if (a === '-dump') dump = value;
    flags.push(value ? `${a} ${value}` : a);
    i += takes;
  }
  return {
    deadlockChecking: !args.includes('-deadlock'),
    ...(workers !== undefined ? { workers } : {}),
    ...(dump !== undefined ? { dump } : {}),
    flags,
    ...(jvm.length > 0 ? { jvm } : {}),
  };
}

/** The flags in words, one [label, value] row each, for the TLC block of the reports. */
export function tlcFlagRows(f: TlcFlags): [string, string][] {
  const rows: [string, string][] = [
    ['deadlock checking', f.deadlockChecking ? 'on (no -deadlock flag)' : 'off (-deadlock): a state with no successor is not reported'],
    ['workers', f.workers !== undefined ? `${f.workers} (-workers ${f.workers})` : '1 (TLC default, no -workers flag)'],
  ];
  if (f.dump !== undefined) rows.push(['state dump', `-dump ${f.dump}`]);
  rows.push(['TLC flags', f.flags.join(' ') || '(none)']);
  if (f.jvm && f.jvm.length > 0) rows.push(['JVM options', f.jvm.join(' ')]);
  return rows;
}
