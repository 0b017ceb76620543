/** Two sets of canonical state keys compared both ways (parity of any twin with TLC). */
export interface SetComparison {
  readonly equal: boolean;
  readonly machineCount: number;
  readonly tlcCount: number;
  readonly onlyMachineCount: number;
  readonly onlyTlcCount: number;
  /** The first differences, sorted. */
  readonly onlyMachine: readonly string[];
  readonly onlyTlc: readonly string[];
}

/** Compares two sets of canonical keys; keeps the first `show` differences of each side. */
export function compareStateSets(machine: Iterable<string>, tlc: Iterable<string>, show = 5): SetComparison {
  const m = new Set(machine);
  const t = new Set(tlc);
  const onlyMachine = [...m].filter((k) => !t.has(k)).sort();
  const onlyTlc = [...t].filter((k) => !m.has(k)).sort();
  return {
    equal: onlyMachine.length === 0 && onlyTlc.length === 0,
    machineCount: m.size,
    tlcCount: t.size,
    onlyMachineCount: onlyMachine.length,
    onlyTlcCount: onlyTlc.length,
    onlyMachine: onlyMachine.slice(0, show),
    onlyTlc: onlyTlc.slice(0, show),
  };
}
