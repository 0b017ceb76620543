/**
 * Re-records test/tlc/fixtures/{<name>.out,<name>.dumptrace.json,captures.json} from real TLC runs
 * (`TLA2TOOLS_JAR=… npx tsx test/tlc/capture-fixtures.ts [NAME…]`). One TLC at a time, one worker.
 * With names, only those captures are re-recorded; the index keeps every other record as it was.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-root.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { CAPTURE_INDEX, CAPTURES, fixturePath, readCaptureIndex, runCapture, type CaptureRecord } from './captures.js';

const located = locateTlc();
if (!located.ok) {
  process.stderr.write(`capture-fixtures: ${located.reason}\n`);
  process.exit(2);
}
const names = process.argv.slice(2);
const unknown = names.filter((n) => !CAPTURES.some((c) => c.name === n));
if (unknown.length > 0) {
  process.stderr.write(`capture-fixtures: no capture named ${unknown.join(', ')}\n`);
  process.exit(64);
}
const kept = names.length === 0 ? [] : readCaptureIndex().captures;
const records: CaptureRecord[] = [];
for (const c of CAPTURES) {
  if (names.length > 0 && !names.includes(c.name)) {
    const old = kept.find((r) => r.name === c.name);
    if (old) records.push(old);
    continue;
  }
  const { run, dumpTrace, record } = await runCapture(c, located.tools);
  if (run.kind !== 'completed') throw new Error(`${c.name}: TLC timed out`);
  writeFileSync(fixturePath(`${c.name}.out`), run.raw);
  if (dumpTrace !== undefined) writeFileSync(fixturePath(`${c.name}.dumptrace.json`), dumpTrace);
  if (c.dump && run.dumpText !== undefined) writeFileSync(fixturePath(`${c.name}.dump`), run.dumpText);
  records.push({ ...record, tlcVersion: run.result.version ?? 'unknown' });
  process.stdout.write(`${c.name}: exit ${run.exitCode}, ${run.result.outcome}\n`);
}
const comment =
  "Real TLC output captured by test/tlc/capture-fixtures.ts: each <name>.out is the unedited stdout+stderr of src/tlc/run.ts running TLC with the flags shown; tlcExit is TLC's exit status; the SHA-256 pin the inputs (test/tlc/live-captures.test.ts re-runs them).";
writeFileSync(join(projectRoot, CAPTURE_INDEX), `${JSON.stringify({ comment, captures: records }, null, 2)}\n`);
