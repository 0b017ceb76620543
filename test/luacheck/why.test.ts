import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLuaSource } from '../../src/luacheck/check.js';
import { DEFAULT_INCLUDE_PATTERN, includePattern } from '../../src/luacheck/includes.js';
import type { LuaFinding } from '../../src/luacheck/findings.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

/** Every case the issue lists under "Why": each failed with the hand-listed checker before. */
const check = (src: string): readonly LuaFinding[] => {
  const r = checkLuaSource(src);
  if (!r.ok) throw new Error(r.error.message);
  return r.findings;
};
const brief = (src: string) => check(src).map((f) => `${f.line} ${f.kind}${f.key !== undefined ? ` ${f.key}` : ''}`);

describe('lua-check: the cases the hand-listed checker got wrong', () => {
  it('keeps checking after `local rcall = redis.call`: every call through the alias', () => {
    const src = ['local rcall = redis.call', "rcall('GET', KEYS[1])", "rcall('SET', ARGV[1], 1)", "return rcall('DEL', 'jobs')"].join('\n');
    expect(brief(src)).toEqual(['3 undeclared-key ARGV[1]', "4 undeclared-key 'jobs'"]);
  });

  it("finds redis['call'](…), `local r = redis; r.call(…)` and pcall(redis.call, …)", () => {
    expect(brief("return redis['call']('GET', 'x')")).toEqual(["1 undeclared-key 'x'"]);
    expect(brief("local r = redis\nreturn r.call('GET', ARGV[1])")).toEqual(['2 undeclared-key ARGV[1]']);
    expect(brief("return pcall(redis.call, 'GET', ARGV[1])")).toEqual(['1 undeclared-key ARGV[1]']);
  });

  it('reports loadstring and writes into KEYS as findings of their own kind', () => {
    expect(brief("return loadstring(\"return redis.call('GET', 'x')\")()")).toEqual(['1 loadstring']);
    expect(brief("KEYS[1] = ARGV[1]\nreturn redis.call('GET', KEYS[1])")).toEqual(['1 keys-write']);
    expect(brief("table.insert(KEYS, ARGV[1])\nfor _, k in ipairs(KEYS) do redis.call('DEL', k) end")).toEqual(['1 keys-write']);
    expect(brief('KEYS = {ARGV[1]}')).toEqual(['1 keys-write']);
  });

  it('takes the key after the subcommand word (XGROUP CREATE, XINFO STREAM, OBJECT ENCODING)', () => {
    expect(brief("redis.call('XGROUP', 'CREATE', KEYS[1], 'g', '$', 'MKSTREAM')\nredis.call('XINFO', 'STREAM', KEYS[1])\nreturn redis.call('OBJECT', 'ENCODING', KEYS[1])")).toEqual([]);
    const f = check("return redis.call('XGROUP', 'CREATE', ARGV[1], 'g', '$')");
    expect(f.map((x) => [x.command, x.key])).toEqual([['XGROUP CREATE', 'ARGV[1]']]);
  });

  it('takes the keys after the count, not the timeout (BLMPOP), and keyword destinations (GEORADIUS … STORE)', () => {
    expect(brief("return redis.call('BLMPOP', 0, 2, KEYS[1], KEYS[2], 'LEFT')")).toEqual([]);
    expect(brief("return redis.call('BLMPOP', 5, 1, ARGV[1], 'LEFT')")).toEqual(['1 undeclared-key ARGV[1]']);
    expect(brief("return redis.call('GEORADIUS', KEYS[1], 15, 37, 200, 'km', 'STORE', 'nearby')")).toEqual(["1 undeclared-key 'nearby'"]);
    expect(brief("return redis.call('GEORADIUS', KEYS[1], 15, 37, 200, 'km', 'STOREDIST', KEYS[2])")).toEqual([]);
  });

  it('takes a helper parameter as declared when every call site passes a declared key', () => {
    const helper = "local function bump(key) return redis.call('INCR', key) end\n";
    expect(brief(`${helper}bump(KEYS[1])\nreturn bump(KEYS[2])`)).toEqual([]);
    const f = check(`${helper}bump(KEYS[1])\nreturn bump(ARGV[1])`);
    expect(f.map((x) => `${x.line} ${x.kind}`)).toEqual(['1 undeclared-key']);
    expect(f[0]!.message).toMatch(/parameter of bump/);
  });

  it('follows include directives, and names the included file and its line', () => {
    const dir = ownedTempDir('luacheck');
    mkdirSync(join(dir, 'includes'));
    writeFileSync(join(dir, 'includes', 'helpers.lua'), "-- helpers\nfunction push(q, v)\n  redis.call('LPUSH', q, v)\n  redis.call('INCR', 'stats')\nend\n");
    const main = join(dir, 'main.lua');
    const src = '--- @include "includes/helpers.lua"\npush(KEYS[1], ARGV[1])\nreturn redis.call(\'GET\', ARGV[2])\n';
    const r = checkLuaSource(src, { file: main, includePattern: includePattern(DEFAULT_INCLUDE_PATTERN) });
    expect(r.ok && r.findings.map((f) => `${f.file.slice(dir.length + 1)}:${f.line}:${f.column} ${f.key}`)).toEqual(["includes/helpers.lua:4:22 'stats'", 'main.lua:3:26 ARGV[2]']);
    // Without expansion the helper is an unknown global: its keys are not seen.
    const plain = checkLuaSource(src, { file: main });
    expect(plain.ok && plain.findings.map((f) => f.line)).toEqual([3]);
  });

  it('grades a key built from a declared key as a warning, and anything else as an error', () => {
    const f = check("redis.call('SET', KEYS[1] .. ':lock', 1)\nreturn redis.call('SET', '{user}:lock', 1)");
    expect(f.map((x) => `${x.kind} ${x.severity}`)).toEqual(['same-tag-key warning', 'undeclared-key error']);
  });

  it('reports a syntax error with its line, not a finding', () => {
    const r = checkLuaSource('local x = \nreturn redis.call(');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.line).toBe(2);
  });
});
