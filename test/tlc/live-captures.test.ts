/**
 * With a jar: every capture of fixtures/captures.json re-run with real TLC gives what the committed
 * fixture gives the parser (outcome, property, counts, trace, loop, TLC's exit status) and the same
 * -dumpTrace json. Without a jar these are skipped, and their names say why.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reconcileExit } from '../../src/tlc/exit-status.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { parseToolOutput, type TlcResult } from '../../src/tlc/tool-output.js';
import { CAPTURES, fixturePath, readCaptureIndex, runCapture } from './captures.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

/** What a capture must reproduce: everything but times, paths and TLC's version line. */
function essence(r: TlcResult) {
  return {
    outcome: r.outcome,
    violated: r.violated,
    violationKind: r.violationKind,
    laterTraces: r.laterTraces,
    generated: r.generated,
    distinct: r.distinct,
    depth: r.depth,
    trace: r.trace,
    loop: r.loop,
    unreadable: r.unreadable,
    exit: r.exit,
    sany: r.sany,
  };
}

describe(`captured TLC output still matches a live run${why}`, () => {
  const index = readCaptureIndex();
  for (const c of CAPTURES) {
    it.skipIf(!located.ok)(
      `${c.name}: ${c.shows}${why}`,
      async () => {
        if (!located.ok) return;
        const rec = index.captures.find((x) => x.name === c.name)!;
        const { run, dumpTrace } = await runCapture(c, located.tools);
        expect(run.kind).toBe('completed');
        if (run.kind !== 'completed') return;
        expect(run.exitCode).toBe(rec.tlcExit);
        const committed = reconcileExit(parseToolOutput(readFileSync(fixturePath(`${c.name}.out`), 'utf8')), rec.tlcExit, { continued: c.extraArgs?.includes('-continue') === true });
        expect(essence(run.result)).toEqual(essence(committed));
        if (c.dumpTrace) expect(JSON.parse(dumpTrace ?? 'null')).toEqual(JSON.parse(readFileSync(fixturePath(`${c.name}.dumptrace.json`), 'utf8')));
      },
      180_000,
    );
  }
});
