import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDeclaredKeys, loadLuaScript, luaScript, ScriptCheckError } from '../../src/valkey/scripts/index.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const lines = (src: string) => checkDeclaredKeys(src).map((f) => f.line);

describe('checkDeclaredKeys (every key from KEYS)', () => {
  it('accepts KEYS[n], local aliases, ipairs(KEYS) and unpack(KEYS)', () => {
    const src = [
      'local lease, gen = KEYS[1], KEYS[2]',
      "local cur = redis.call('GET', lease)",
      "if not cur then redis.call('SET', lease, ARGV[1], 'PX', ARGV[2]) end",
      "local n = redis.call('INCR', gen)",
      "for _, k in ipairs(KEYS) do redis.call('PEXPIRE', k, 1000) end",
      "redis.call('DEL', unpack(KEYS))",
      "redis.call('MSET', KEYS[1], 'a', KEYS[2], 'b')",
      "local t = redis.call('TIME')",
      "local ok = redis.pcall('HSET', KEYS[3], 'f', ARGV[1])",
      'return n',
    ].join('\n');
    expect(checkDeclaredKeys(src)).toEqual([]);
  });

  it('rejects a literal key, a built key, an ARGV key and a reassigned alias, with their lines', () => {
    const src = [
      'local k = KEYS[1]', // 1
      "redis.call('GET', 'buzz:c1:tunnel:s1:lease')", // 2 literal
      "redis.call('INCR', KEYS[1] .. ':generation')", // 3 concatenation
      "redis.call('SET', ARGV[1], 1)", // 4 ARGV
      'local j = KEYS[2]', // 5
      'j = ARGV[2]', // 6 alias tainted
      "redis.call('DEL', j)", // 7
      "redis.call('MSET', KEYS[1], 'v', 'other', 'w')", // 8 second key literal
      "return redis.call('GET', k)", // 9 fine
    ].join('\n');
    expect(lines(src)).toEqual([2, 3, 4, 7, 8]);
    expect(checkDeclaredKeys(src)[0]!.message).toMatch(/not from KEYS/);
  });

  it('rejects key enumeration and dynamic command names; follows an alias of redis.call to its calls', () => {
    expect(lines("return redis.call('SCAN', 0)")).toEqual([1]);
    expect(lines("return redis.call('KEYS', '*')")).toEqual([1]);
    expect(lines('local c = ARGV[1]\nreturn redis.call(c, KEYS[1])')).toEqual([2]);
    expect(lines("local call = redis.call\nreturn call('GET', 'x')")).toEqual([2]);
    expect(lines("local call = redis.call\nreturn call('GET', KEYS[1])")).toEqual([]);
    expect(lines('local t = {}\nt.f = redis.call\nunknown(redis.call)')).toEqual([3]);
  });

  it('does not let a shadowing local named KEYS pass', () => {
    expect(lines("local KEYS = {'x'}\nreturn redis.call('GET', KEYS[1])")).toEqual([2]);
  });

  it('takes a function parameter as declared only when every call passes a declared key', () => {
    expect(lines("local function get(k) return redis.call('GET', k) end\nreturn get(KEYS[1])")).toEqual([]);
    expect(lines("local function get(k) return redis.call('GET', k) end\nget(KEYS[1])\nreturn get(ARGV[1])")).toEqual([1]);
    expect(lines("local function get(k) return redis.call('GET', k) end")).toEqual([1]); // never called: anything
  });

  it('keeps line numbers with a #!lua shebang and reports syntax errors', () => {
    expect(lines("#!lua flags=no-writes\nreturn redis.call('GET', 'x')")).toEqual([2]);
    const bad = checkDeclaredKeys('return redis.call(');
    expect(bad).toHaveLength(1);
    expect(bad[0]!.message).toMatch(/syntax error/i);
  });

  it('luaScript/loadLuaScript throw ScriptCheckError on a finding and hash the (transformed) source', () => {
    expect(() => luaScript('bad', "return redis.call('GET', 'undeclared')")).toThrow(ScriptCheckError);
    const ok = luaScript('ok', "return redis.call('GET', KEYS[1])");
    expect(ok.sha1).toMatch(/^[0-9a-f]{40}$/);
    const dir = ownedTempDir('lua');
    const file = join(dir, 'acquire.lua');
    writeFileSync(file, "return redis.call('GET', KEYS[1])\n");
    const loaded = loadLuaScript(file);
    expect(loaded.name).toBe('acquire');
    expect(() => loadLuaScript(file, { transform: (s) => s.replace('KEYS[1]', "'x'") })).toThrow(/line 1/);
  });
});
