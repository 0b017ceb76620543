/**
 * lua-check for CI code scanning: SARIF 2.1.0 valid against the published schema (vendored in
 * test/schemas), stable rule ids, an inline suppression that needs a reason, and a declared key
 * prefix argument (ARGV[n] carries the tag) whose keys are judged by their tag.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLuaSource } from '../../src/luacheck/check.js';
import { LUA_RULES } from '../../src/luacheck/rules.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { runCli } from '../verify/run-cli.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../schemas/sarif-schema-2.1.0.json'), 'utf8')) as object;
// CommonJS packages: their ES default is the module object, whose `default` is the export.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
ajvFormats.default(ajv);
const validate = ajv.compile(schema);

let dir: string;
const write = (rel: string, text: string) => {
  const p = join(dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
};
const kinds = (src: string, keyPrefixArgs?: number[]) => {
  const r = checkLuaSource(src, { ...(keyPrefixArgs && { keyPrefixArgs }) });
  if (!r.ok) throw new Error(r.error.message);
  return r.findings.map((f) => `${f.line} ${f.kind}${f.suppressed !== undefined ? ` suppressed(${f.suppressed})` : ''}`);
};

beforeAll(() => {
  dir = ownedTempDir('lua-sarif');
});

describe('stable rule ids', () => {
  it('every finding kind has its id, never renumbered', () => {
    expect(LUA_RULES.map((r) => `${r.id} ${r.kind}`)).toEqual([
      'FCL001 undeclared-key',
      'FCL002 same-tag-key',
      'FCL003 keys-write',
      'FCL004 dynamic-command',
      'FCL005 loadstring',
      'FCL006 escaped-call',
      'FCL007 unchecked-command',
      'FCL008 keyspace-command',
      'FCL009 noscript-command',
      'FCL010 unknown-command',
      'FCL011 bad-suppression',
    ]);
  });
});

describe('inline suppression', () => {
  it('a trailing comment with a reason suppresses its line; a comment alone covers the next line; by kind or id', () => {
    expect(kinds("return redis.call('GET', ARGV[1]) -- lua-check-allow undeclared-key: same slot as KEYS[1]\n")).toEqual(['1 undeclared-key suppressed(same slot as KEYS[1])']);
    expect(kinds("-- lua-check-allow FCL001: reviewed\nreturn redis.call('GET', ARGV[1])\n")).toEqual(['2 undeclared-key suppressed(reviewed)']);
  });

  it('no reason, no rule or an unknown rule: nothing suppressed, and the comment is a finding', () => {
    expect(kinds("return redis.call('GET', ARGV[1]) -- lua-check-allow undeclared-key\n")).toEqual(['1 undeclared-key', '1 bad-suppression']);
    expect(kinds("return redis.call('GET', ARGV[1]) -- lua-check-allow undeclared-key:   \n")).toEqual(['1 undeclared-key', '1 bad-suppression']);
    expect(kinds("return redis.call('GET', ARGV[1]) -- lua-check-allow: because\n")).toEqual(['1 undeclared-key', '1 bad-suppression']);
    expect(kinds("return redis.call('GET', ARGV[1]) -- lua-check-allow undeclared-keys: typo\n")).toEqual(['1 undeclared-key', '1 bad-suppression']);
  });

  it('only the kinds it names, only the line it covers', () => {
    expect(kinds("return redis.call('GET', KEYS[1] .. ':x') -- lua-check-allow undeclared-key: wrong kind\n")).toEqual(['1 same-tag-key']);
    expect(kinds("-- lua-check-allow undeclared-key: next line only\nlocal x = 1\nreturn redis.call('GET', ARGV[1])\n")).toEqual(['3 undeclared-key']);
  });
});

describe('a declared key prefix argument', () => {
  const src = "local jobKey = ARGV[1] .. 'job:' .. ARGV[3]\nredis.call('HSET', jobKey, 'state', 'wait')\nreturn redis.call('DEL', ARGV[2] .. 'x')\n";
  it('keys built from ARGV[n] are judged by its tag (same-tag warning); other ARGV stay undeclared', () => {
    expect(kinds(src)).toEqual(['2 undeclared-key', '3 undeclared-key']);
    expect(kinds(src, [1])).toEqual(['2 same-tag-key', '3 undeclared-key']);
    expect(kinds(src, [1, 2])).toEqual(['2 same-tag-key', '3 same-tag-key']);
  });

  it("in a Functions library, the callback's args are ARGV", () => {
    const lib = "#!lua name=q\nserver.register_function('add', function(keys, args)\n  return server.call('SET', args[1] .. 'n', 1)\nend)\n";
    expect(kinds(lib)).toEqual(['3 undeclared-key']);
    expect(kinds(lib, [1])).toEqual(['3 same-tag-key']);
  });
});

describe('lua-check --format sarif', () => {
  it('is a SARIF 2.1.0 log valid against the published schema: rule ids, locations, the including script related, suppressions, unreadable files', async () => {
    write('scan/includes/helper.lua', "local function helper(k)\n  return rcall('GET', k)\nend\n");
    write('scan/a.lua', 'local rcall = redis.call\n--- @include "includes/helper"\nreturn helper(ARGV[1])\n');
    write('scan/b.lua', "return redis.call('SET', 'config', 1) -- lua-check-allow undeclared-key: a single-node deployment\n");
    write('scan/broken.lua', 'return (\n');
    const r = await runCli(['lua-check', '--includes', '--format', 'sarif', join(dir, 'scan')]);
    expect(r.code, r.stderr).toBe(3);
    const log = JSON.parse(r.stdout) as SarifLog;
    const ok = validate(log);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
    const run = log.runs[0]!;
    expect(run.tool.driver.rules.map((x) => x.id)).toEqual(LUA_RULES.map((x) => x.id));
    const helper = run.results.filter((x) => x.locations[0]!.physicalLocation.artifactLocation.uri.endsWith('scan/includes/helper.lua'));
    expect(helper).toHaveLength(1);
    expect(helper[0]).toMatchObject({ ruleId: 'FCL001', level: 'error', locations: [{ physicalLocation: { region: { startLine: 2, startColumn: 23 } } }] });
    expect(helper[0]!.relatedLocations!.map((l) => `${l.physicalLocation.artifactLocation.uri.replace(/^.*scan\//, '')}:${l.physicalLocation.region.startLine}`)).toEqual(['a.lua:2']);
    const suppressed = run.results.find((x) => x.locations[0]!.physicalLocation.artifactLocation.uri.endsWith('b.lua'))!;
    expect(suppressed.suppressions).toEqual([{ kind: 'inSource', justification: 'a single-node deployment' }]);
    expect(run.invocations[0]!.executionSuccessful).toBe(false);
    expect(run.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text)).toEqual([expect.stringMatching(/^Lua syntax error: /)]);
  });

  it('the schema check can fail: a level SARIF does not know is refused', () => {
    const bad = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'info' }] }] };
    expect(validate(bad)).toBe(false);
  });
});

interface SarifLocation {
  physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn?: number } };
}
interface SarifLog {
  runs: {
    tool: { driver: { rules: { id: string }[] } };
    invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[];
    results: { ruleId: string; level: string; locations: SarifLocation[]; relatedLocations?: SarifLocation[]; suppressions?: unknown[] }[];
  }[];
}
