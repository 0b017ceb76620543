/**
 * The patch file a trace records (`patch`: path + sha256, src/seam/patch-file.ts): the reader and
 * the published schema take exactly {path, sha256}; a repository file is recorded by its
 * repository path, any other by its absolute one; a replay gets the file only while its bytes are
 * the recorded ones; a tour trace keeps the record when it is saved; the headline names it.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { TRACE_SCHEMA, type ModelStep, type ModelTrace } from '../../src/core/trace-format.js';
import { PatchFileError, patchFileRecord, verifiedPatchFile } from '../../src/seam/patch-file.js';
import { saveTrace as saveTourTrace } from '../../src/systems/fencing/model/trace.js';
import { TraceFormatError, validateTrace } from '../../src/trace/load.js';
import { traceHeadline } from '../../src/trace/text-table.js';
import { m1Steps, m1Trace, plain } from './fixtures.js';
import { validateAgainst } from './json-schema.js';

const schema = JSON.parse(readFileSync(join(projectRoot, 'docs/schema/fencecheck.trace-2.schema.json'), 'utf8')) as Record<string, unknown>;
const M1 = 'mutants/fencing/impl/M1.ts';
const sha = (abs: string) => createHash('sha256').update(readFileSync(abs)).digest('hex');
const dir = ownedTempDir('patch-record');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a trace's patch record", () => {
  const good = { path: M1, sha256: sha(join(projectRoot, M1)) };

  it('is read and published as exactly {path, sha256}', () => {
    const t = { ...plain(m1Trace()), patch: good };
    expect(validateTrace(t).patch).toEqual(good);
    expect(validateAgainst(schema, t)).toBeNull();
    for (const bad of [{ path: M1 }, { ...good, sha256: 'ABC' }, { ...good, sha256: good.sha256.toUpperCase() }, { ...good, path: '' }, { ...good, extra: 1 }, 'M1.ts']) {
      const tb = { ...plain(m1Trace()), patch: bad };
      expect(() => validateTrace(tb), JSON.stringify(bad)).toThrow(TraceFormatError);
      expect(validateAgainst(schema, tb), JSON.stringify(bad)).not.toBeNull();
    }
  });

  it('names a repository file by its repository path and any other by its absolute path', () => {
    expect(patchFileRecord(M1, projectRoot)).toEqual(good);
    expect(patchFileRecord(join(projectRoot, M1), '/')).toEqual(good);
    const mine = join(dir, 'mine.mts');
    writeFileSync(mine, 'export default { dropGateRules: [] };\n');
    expect(patchFileRecord('mine.mts', dir)).toEqual({ path: mine, sha256: sha(mine) });
    expect(() => patchFileRecord(join(dir, 'none.mts'))).toThrow(new PatchFileError(`patch file ${join(dir, 'none.mts')} does not exist`));
    expect(() => patchFileRecord(dir)).toThrow(/is not a regular file/);
  });

  it('gives a replay the file only while its bytes are the recorded ones', () => {
    const mine = join(dir, 'changing.mts');
    writeFileSync(mine, 'export default { dropGateRules: [] };\n');
    const rec = patchFileRecord(mine);
    expect(verifiedPatchFile(rec)).toBe(mine);
    expect(verifiedPatchFile(good)).toBe(join(projectRoot, M1));
    appendFileSync(mine, '// one more line\n');
    expect(() => verifiedPatchFile(rec)).toThrow(/changed since the trace was made/);
    rmSync(mine);
    expect(() => verifiedPatchFile(rec)).toThrow(/does not exist/);
  });

  it('is kept when a tour trace is saved, and named in the headline', () => {
    const steps: ModelStep[] = m1Steps().map((s) => ({ action: s.action, params: s.params as Record<string, string>, state: s.state }));
    const tour: ModelTrace = { schema: TRACE_SCHEMA, system: 'fencing', source: 'conform', bounds: { pods: ['p1', 'p2', 'p3'], maxGen: 4 }, patch: good, violated: 'Inv_SingleAuthority', steps };
    const saved = JSON.parse(readFileSync(resolve(projectRoot, saveTourTrace(tour, 'tour-with-patch.json', dir)), 'utf8')) as Record<string, unknown>;
    expect(saved.patch).toEqual(good);
    expect(saved.mutant).toBeUndefined();
    expect(traceHeadline(validateTrace(saved))).toContain(`· patch=${M1} ·`);
  });
});
