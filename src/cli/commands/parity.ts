import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs } from '../../core/args.js';
import { statusExitCode } from '../../core/exit-codes.js';
import { stageReport } from '../../core/stage-report.js';
import { detailsSection } from '../../core/details-blocks.js';
import { boundsLabel } from '../../systems/fencing/model/bounds.js';
import { checkParity, formatEdge, parityTables } from '../../systems/fencing/model/parity.js';
import { renderTable } from '../../core/table.js';

const HELP = `Usage: fencecheck parity [--show N] [--json]

Compares the XState twin with the TLA+ spec:
  1. the reachable states: every machine state mapped to its canonical key (src/systems/fencing/state.ts)
     against the TLC state dump in the committed evidence (evidence/tlc/fencing/base.states.txt), on the
     bounds TLC ran: same count, same set; the first differences of each side are printed;
  2. the labelled transitions: every (state, enabled event with its pod, successor) of the machine
     against TLC's state graph (-dump dot,actionlabels; evidence/tlc/fencing/base.edges.txt), self-loops
     included (TLC writes them too): same count, same set, first differences of each side;
  3. the action alphabet: the actions of the spec's Next against the machine's events;
  4. tables: TLA+ action ↔ XState event ↔ Lua script / gate step, invariant ↔ model check ↔
     property, named guard ↔ spec ↔ implementation ("pending" where it has not landed).

Options:
  --show N   differences to print per side (default 5)
  --json     print a StageReport (fencecheck.stage/1)

Exit codes: 0 the state sets, the edge sets and the alphabets are equal · 1 they differ · 2 not run:
the TLC evidence is missing or stale (the reason says which and how to refresh it) · 64 usage`;

const PARITY_INTRO = "The XState machine's reachable states against the TLC state dump, and the action ↔ event ↔ script table.";

export const command: Command = {
  name: 'parity',
  summary: 'compare the XState twin with TLC: same reachable states, same labelled edges, same actions',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, { show: { type: 'string' }, json: { type: 'boolean', default: false } });
    const show = intOption(values, 'show', { min: 0, max: 100_000, default: 5 });
    const startedAt = new Date();
    const out = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`);
    const tables = await parityTables();
    if (!values.json) {
      out(renderTable(['TLA+ action', 'XState event → effects', 'named guards', 'Lua script / gate step'], tables.actions.map((r) => [r.action, r.event, r.guards, r.implementation])));
      out('');
      out(renderTable(['invariant', 'TLA+', 'model check', 'property'], tables.invariants.map((r) => [r.invariant, r.tla, r.model, r.property])));
      out('');
      out(renderTable(['named guard', 'TLA+', 'implementation'], tables.guards.map((r) => [r.guard, r.tla, r.implementation])));
      out('');
    }

    const result = checkParity(undefined, show);
    const { alphabet, sets, edges, machine, tlc } = result;
    if (alphabet && !alphabet.equal) out(`actions: spec only: ${alphabet.onlySpec.join(', ') || '-'}; machine only: ${alphabet.onlyMachine.join(', ') || '-'}`);
    if (sets && machine && tlc) {
      out(`states (${boundsLabel(tlc.bounds)}): machine ${machine.distinct} distinct / ${machine.generated} generated (${Math.round(machine.durationMs)} ms); TLC (${tlc.tlcVersion}) ${tlc.distinct} distinct / ${tlc.generated} generated (${tlc.durationMs} ms)`);
      if (sets.onlyMachineCount > 0) out(`only the machine reaches ${sets.onlyMachineCount}, first:\n${sets.onlyMachine.map((k) => `  ${k}`).join('\n')}`);
      if (sets.onlyTlcCount > 0) out(`only TLC reaches ${sets.onlyTlcCount}, first:\n${sets.onlyTlc.map((k) => `  ${k}`).join('\n')}`);
    }
    if (edges && machine && tlc) {
      out(`edges: machine ${edges.machineCount} (${edges.machineSelfLoops} self-loops); TLC ${edges.tlcCount} (${edges.tlcSelfLoops} self-loops; ${tlc.generated} generated = ${tlc.edges.initialStates} initial + ${tlc.edges.dotEdges} edges; pods from ${tlc.edges.podParameter}); sha256 ${edges.equal ? `${edges.tlcSha256.slice(0, 12)}… both` : `machine ${edges.machineSha256.slice(0, 12)}…, TLC ${edges.tlcSha256.slice(0, 12)}…`}`);
      if (edges.onlyMachineCount > 0) out(`only the machine has ${edges.onlyMachineCount} edge(s), first:\n${edges.onlyMachine.map((e) => formatEdge(e)).join('\n')}`);
      if (edges.onlyTlcCount > 0) out(`only TLC has ${edges.onlyTlcCount} edge(s), first:\n${edges.onlyTlc.map((e) => formatEdge(e)).join('\n')}`);
    }
    const summary =
      result.status === 'passed'
        ? `parity: the machine reaches exactly TLC's ${sets!.tlcCount} states and takes exactly its ${edges!.tlcCount} labelled edges (${edges!.tlcSelfLoops} self-loops); every spec action is one event`
        : `parity ${result.status === 'not-run' ? 'not run' : 'broken'}: ${result.reason}`;
    if (values.json) {
      const counts =
        sets && edges && machine && tlc
          ? {
              machineDistinct: sets.machineCount,
              tlcDistinct: sets.tlcCount,
              machineGenerated: machine.generated,
              tlcGenerated: tlc.generated,
              onlyMachine: sets.onlyMachineCount,
              onlyTlc: sets.onlyTlcCount,
              machineEdges: edges.machineCount,
              tlcEdges: edges.tlcCount,
              machineSelfLoops: edges.machineSelfLoops,
              tlcSelfLoops: edges.tlcSelfLoops,
              onlyMachineEdges: edges.onlyMachineCount,
              onlyTlcEdges: edges.onlyTlcCount,
              explorationMs: Math.round(machine.durationMs),
              tlcMs: tlc.durationMs,
            }
          : undefined;
      const details = { alphabet, sets, edges, tlc, tables };
      const report = stageReport({
        stage: 'parity',
        status: result.status,
        ...(result.reason !== undefined ? { reason: result.reason } : {}),
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        summary,
        ...(counts ? { counts } : {}),
        // The verify reports show the counts and details as the stage's section.
        details: { ...details, sections: [detailsSection({ id: 'stage-parity', title: 'Parity report', intro: PARITY_INTRO, ...(counts ? { counts } : {}), details })] },
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else if (result.status === 'passed') out(summary);
    else process.stderr.write(`fencecheck parity: ${summary}\n`);
    return statusExitCode(result.status);
  },
};
