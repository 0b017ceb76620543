/**
 * lua-check on scripts the project did not write ("Scripts"): includes named without
 * `.lua` (as queue libraries write them) and found on a search path, each inlined once per script;
 * findings in helper functions the script never uses marked unreachable (info, never failing);
 * a size limit; encodings a script cannot be in refused in one line; control bytes escaped in
 * every message. Each case is a defect of the issue, red on the code before the change.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { checkLuaSource } from '../../src/luacheck/check.js';
import { DEFAULT_INCLUDE_PATTERN, includePattern, IncludeError } from '../../src/luacheck/includes.js';
import { decodeScript, displayBytes, displayText, MAX_SCRIPT_BYTES, textEncoding } from '../../src/luacheck/source.js';

let dir: string;
const pattern = includePattern(DEFAULT_INCLUDE_PATTERN);
const write = (rel: string, text: string | Buffer) => {
  const p = join(dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fencecheck-user-lua-'));
  write('includes/removeLock.lua', "local function removeLock(key)\n  return rcall('DEL', key)\nend\n");
  write('includes/unused.lua', "local function neverCalled(k)\n  return rcall('GET', 'literal:key')\nend\n");
  write('includes/shared.lua', "local function shared(k)\n  return rcall('GET', k)\nend\n");
  write('includes/usesShared.lua', '--- @include "shared"\nlocal function usesShared(k)\n  return shared(k)\nend\n');
  write('lib/onPath.lua', "local function onPath(k) return rcall('SET', k, 1) end\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: readonly string[]) {
  const r = spawnSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'lua-check', ...args], { cwd: dir, encoding: 'latin1', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('includes as queue libraries write them', () => {
  it('an include named without .lua is found (it was exit 3: cannot read include)', () => {
    const file = write('a-1.lua', 'local rcall = redis.call\n--- @include "includes/removeLock"\nreturn removeLock(KEYS[1])\n');
    const r = cli(['--includes', file]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/^lua-check: 1 file, 0 errors, 0 warnings/m);
  });

  it('two-dash directives, and a search path for includes not beside the script', () => {
    const file = write('sub/b.lua', 'local rcall = redis.call\n-- @include "onPath"\nreturn onPath(KEYS[1])\n');
    expect(cli(['--includes', file]).err).toMatch(/cannot find include onPath \(looked for it and with \.lua in .*sub\)/);
    const r = cli(['--include-path', join(dir, 'lib'), file]);
    expect(r.code, r.out + r.err).toBe(0);
  });

  it('each include is inlined once per script, at its first directive', () => {
    const file = write('c.lua', 'local rcall = redis.call\n--- @include "includes/shared"\n--- @include "includes/usesShared"\n--- @include "includes/shared"\nreturn usesShared(ARGV[1])\n');
    const r = checkLuaSource(readBytes(file), { file, includePattern: pattern });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.included?.map((p) => p.slice(dir.length + 1))).toEqual(['includes/shared.lua', 'includes/usesShared.lua']);
    // One finding for shared.lua's GET (before: one per directive that pulled shared.lua in).
    expect(r.findings.map((f) => `${f.file.slice(dir.length + 1)}:${f.line} ${f.severity} ${f.kind}`)).toEqual(['includes/shared.lua:2 error undeclared-key']);
  });

  it('globs and mapped paths are refused in one clear line, never read as files', () => {
    const glob = write('d.lua', '--- @include "includes/*"\nreturn 1\n');
    expect(() => checkLuaSource(readBytes(glob), { file: glob, includePattern: pattern })).toThrow(new IncludeError('include includes/*: glob patterns are not supported (name each file)', glob, 1));
    const mapped = write('e.lua', '--- @include "<includes>/x"\nreturn 1\n');
    expect(() => checkLuaSource(readBytes(mapped), { file: mapped, includePattern: pattern })).toThrow(/mapped paths .* are not supported: give the folder with --include-path/);
  });
});

describe('findings only where the script runs', () => {
  const check = (src: string) => {
    const r = checkLuaSource(Buffer.from(src).toString('latin1'));
    if (!r.ok) throw new Error(r.error.message);
    return r.findings.map((f) => `${f.line} ${f.severity}${f.unreachable ? ` (${f.unreachable})` : ''}`);
  };

  it('a helper the script never uses: info, unreachable (it was an error)', () => {
    expect(check("local function helper()\n  return redis.call('GET', 'x')\nend\nreturn 1\n")).toEqual(['2 info (helper)']);
    expect(check("local function helper()\n  return redis.call('GET', 'x')\nend\nreturn helper()\n")).toEqual(['2 error']);
  });

  it('used only by an unused helper, or only by itself: still unreachable; a nested one inherits', () => {
    expect(check("local function inner() return redis.call('GET', 'x') end\nlocal function outer() return inner() end\nreturn 1\n")).toEqual(['1 info (inner)']);
    expect(check("local function loop(n) if n > 0 then return loop(n - 1) end return redis.call('GET', 'x') end\nreturn 1\n")).toEqual(['1 info (loop)']);
    expect(check("local function outer()\n  local f = function() return redis.call('GET', 'x') end\n  return f()\nend\nreturn 1\n")).toEqual(['2 info (outer)']);
  });

  it('every way a function can still run keeps its findings errors: pcall, a callback, a table field, a method, _G', () => {
    expect(check("local function h() return redis.call('GET', 'x') end\nreturn pcall(h)\n")).toEqual(['1 error']);
    expect(check("local function h() return redis.call('GET', 'x') end\nlocal t = {}\ntable.sort(t, h)\nreturn 1\n")).toEqual(['1 error']);
    expect(check("local M = {}\nfunction M.h() return redis.call('GET', 'x') end\nreturn 1\n")).toEqual(['2 error']);
    expect(check("local M = {}\nfunction M:h() return redis.call('GET', 'x') end\nreturn 1\n")).toEqual(['2 error']);
    expect(check("function h() return redis.call('GET', 'x') end\nreturn _G['h']()\n")).toEqual(['1 error']);
    expect(check("local h = function() return redis.call('GET', 'x') end\nlocal g = h\nreturn g()\n")).toEqual(['1 error']);
  });

  it('the CLI: info is printed and never fails, under --fail-on warning too', () => {
    const file = write('f.lua', 'local rcall = redis.call\n--- @include "includes/unused"\nreturn rcall(\'GET\', KEYS[1])\n');
    const r = cli(['--includes', '--fail-on', 'warning', file]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/includes\/unused\.lua:2:23: info \[undeclared-key\] GET key `'literal:key'` .* \[unreachable: neverCalled is never used by the script\]/);
    expect(r.out).toMatch(/lua-check: 1 file, 0 errors, 0 warnings, 1 in unreachable code \(info\)/);
  });

  it('an include shared by several scripts: its finding is printed once, with how many scripts meet it', () => {
    const a = write('g1.lua', 'local rcall = redis.call\n--- @include "includes/shared"\nreturn shared(ARGV[1])\n');
    const b = write('g2.lua', 'local rcall = redis.call\n--- @include "includes/shared"\nreturn shared(ARGV[2])\n');
    const r = cli(['--includes', a, b]);
    expect(r.out.split('\n').filter((l) => l.includes('includes/shared.lua:2:'))).toEqual([expect.stringMatching(/error \[undeclared-key\] .* \(in 2 scripts: g1\.lua:2, g2\.lua:2\)$/)]);
    expect(r.out).toMatch(/2 files, 2 errors, 0 warnings .*1 distinct finding/);
  });

  it('a finding two includes deep names the script and each include on the way, once', () => {
    const a = write('chain/deep.lua', 'local rcall = redis.call\n--- @include "../includes/usesShared"\nreturn usesShared(ARGV[1])\n');
    const r = cli(['--includes', a]);
    expect(r.out.split('\n').filter((l) => l.includes('[undeclared-key]'))).toEqual([
      expect.stringMatching(/^includes\/shared\.lua:2:23: error \[undeclared-key\] .* \(included by chain\/deep\.lua:2 > includes\/usesShared\.lua:1\)$/),
    ]);
    const json = JSON.parse(cli(['--includes', '--json', a]).out) as { details: { files: { findings: { via: unknown }[] }[] } };
    expect(json.details.files[0]!.findings.map((f) => f.via)).toEqual([
      [
        { file: 'chain/deep.lua', line: 2 },
        { file: 'includes/usesShared.lua', line: 1 },
      ],
    ]);
  });

  it('an include checked on its own (its helper unused: info) and through a script that calls it (error): one line, the error', () => {
    const folder = join(dir, 'both');
    write('both/caller.lua', 'local rcall = redis.call\n--- @include "helper"\nreturn helper(ARGV[1])\n');
    write('both/helper.lua', "local function helper(k)\n  return rcall('GET', k)\nend\n");
    const r = cli(['--includes', folder]);
    const lines = r.out.split('\n').filter((l) => l.includes('helper.lua:2:'));
    expect(lines).toEqual([expect.stringMatching(/^both\/helper\.lua:2:23: error \[undeclared-key\] GET key `k` .* \(included by both\/caller\.lua:2\)$/)]);
    expect(r.code).toBe(1);
  });
});

describe('what a script file cannot be', () => {
  it(`over ${MAX_SCRIPT_BYTES} bytes: one line at once (a 100 MB file ran 2.5 min, then V8 ran out of memory)`, () => {
    const big = write('big.lua', Buffer.alloc(MAX_SCRIPT_BYTES + 1, 0x20));
    const r = cli([big]);
    expect(r.code).toBe(3);
    expect(r.err.trim().split('\n')).toEqual([`fencecheck lua-check: ${big} is ${MAX_SCRIPT_BYTES + 1} bytes, over the ${MAX_SCRIPT_BYTES}-byte limit for a script`]);
  });

  it('UTF-16 and UTF-32 (with or without a byte-order mark), UTF-8 with one: a clear line (it was "Cannot read properties of undefined")', () => {
    const text = "return redis.call('GET', KEYS[1])\n";
    const cases: [string, Buffer, RegExp][] = [
      ['u16le.lua', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), /is UTF-16 \(little-endian, with a byte-order mark\) text: .* save it as UTF-8/],
      ['u16be.lua', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), /is UTF-16 \(big-endian, with a byte-order mark\) text/],
      ['u16nobom.lua', Buffer.from(text, 'utf16le'), /is UTF-16 \(little-endian, no byte-order mark\) text/],
      ['u32le.lua', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from(text, 'utf16le')]), /is UTF-32 \(little-endian, with a byte-order mark\) text/],
      ['bom8.lua', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), /begins with a UTF-8 byte-order mark, which Valkey's Lua compiler refuses/],
    ];
    for (const [name, bytes, why] of cases) {
      const r = cli([write(name, bytes)]);
      expect(r.code, name).toBe(3);
      expect(r.err.trim().split('\n'), name).toEqual([expect.stringMatching(why)]);
    }
  });

  it('UTF-8 beyond Latin-1 and Latin-1 bytes are Lua that Valkey runs: checked (UTF-8 emoji was a syntax error)', () => {
    expect(cli([write('emoji.lua', "return redis.call('SET', KEYS[1], 'clé 🔑')\n")]).code).toBe(0);
    expect(cli([write('latin1.lua', Buffer.from("return redis.call('SET', KEYS[1], '\xe9t\xe9')\n", 'latin1'))]).code).toBe(0);
  });

  it('ESC and NUL bytes are escaped in every message: text, JSON, JUnit, syntax errors, file names (they were echoed raw)', () => {
    const key = write('esc.lua', Buffer.from("return redis.call('GET', '\x1b[2J\x00x')\n", 'latin1'));
    const text = cli([key]);
    expect(text.code).toBe(1);
    expect(text.out).toContain("GET key `'\\x1b[2J\\x00x'`");
    const junit = join(dir, 'junit.xml');
    const json = cli([key, '--json', '--junit', junit]);
    const finding = (JSON.parse(json.out) as { details: { files: { findings: { key: string; message: string }[] }[] } }).details.files[0]!.findings[0]!;
    expect(finding.key).toBe("'\\x1b[2J\\x00x'");
    const xml = spawnSync('cat', [junit], { encoding: 'latin1' }).stdout;
    expect(xml).toContain('\\x1b[2J\\x00x');
    const syntax = cli([write('esc-syntax.lua', Buffer.from('local x = 1 \x1b[2J +\n', 'latin1'))]);
    expect(syntax.err.trim()).toMatch(/^fencecheck lua-check: esc-syntax\.lua:1:14: Lua syntax error: unexpected symbol '\\x1b' near '1'$/);
    const named = cli([write('na\x1bme.lua', 'return 1 +\n')]);
    expect(named.err).toContain('na\\x1bme.lua');
    for (const r of [text, json, syntax, named]) expect(`${r.out}${r.err}`).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('the byte helpers', () => {
    expect(displayBytes(Buffer.from('clé \x1b 🔑').toString('latin1'))).toBe('clé \\x1b 🔑');
    expect(displayBytes('\xe9')).toBe('\\xe9');
    expect(displayText('a\tb\nc\x9bd')).toBe('a\\tb\\nc\\x9bd');
    expect(textEncoding(Buffer.from('plain ascii text here'))).toBeUndefined();
    expect(decodeScript(Buffer.from([0x72, 0x00, 0x65]), 'x')).toEqual({ ok: true, text: 'r\x00e' });
  });
});

function readBytes(path: string): string {
  return spawnSync('cat', [path], { encoding: 'latin1' }).stdout;
}
