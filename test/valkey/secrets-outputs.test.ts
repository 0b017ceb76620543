/**
 * "Endpoints and secrets": passwords with every special character — `/`, a space, quotes,
 * `<`, `>`, a backtick, `@`, `:`, `%`, Unicode — written as they are and percent-encoded, for the
 * default user (requirepass) and an ACL user, on a real valkey-server the harness did not start.
 * Real commands run with them (props, gate --url, slot --check --node, lua-check --node, verify with
 * its reports) — with the right password (they pass) and a wrong one (they name the endpoint) — and
 * no output carries any piece of a password: stdout, stderr, verify.json, verify.md, verify.html,
 * junit.xml, and every stage log. Each password is built of marker pieces (Zq1, Zq2, …) that occur
 * nowhere else, so a partial leak (the issue's `redis://:***@ss:w/rd@…`) is seen too.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { startUserValkey, stopUserValkeys, type UserValkey } from '../support/user-valkey.js';
import { fencecheckCli, type CliRun } from '../support/cli.js';

interface Case {
  readonly name: string;
  /** The password; each marker in it is a piece that must never be printed. */
  readonly password: string;
  readonly markers: readonly string[];
  /** Whether it may be written unencoded (a `%XX` in it would be read as an escape). */
  readonly raw: boolean;
}

const CASES: readonly Case[] = [
  { name: 'at, colon, slash (the issue: p@ss:w/rd)', password: 'Zq1@Zq2:Zq3/Zq4@', markers: ['Zq1', 'Zq2', 'Zq3', 'Zq4'], raw: true },
  { name: 'space and quotes', password: 'Zq5 Zq6"Zq7\'Zq8', markers: ['Zq5', 'Zq6', 'Zq7', 'Zq8'], raw: true },
  { name: 'angle brackets and a backtick', password: 'Zq9<Zr1>Zr2`Zr3', markers: ['Zq9', 'Zr1', 'Zr2', 'Zr3'], raw: true },
  { name: 'percent signs (lone, and %41 literally)', password: 'Zr4%Zr5%41Zr6%zz', markers: ['Zr4', 'Zr5', 'Zr6'], raw: false },
  { name: 'lone percent signs, unencoded', password: 'Zr7%Zr8%%Zr9%', markers: ['Zr7', 'Zr8', 'Zr9'], raw: true },
  { name: 'Unicode', password: 'Zs1ünï©Zs2🔑中Zs3', markers: ['Zs1', 'Zs2', 'Zs3'], raw: true },
  { name: 'everything at once', password: 'Zs4/ "\'<>`@:%é🔑Zs5', markers: ['Zs4', 'Zs5'], raw: true },
  { name: 'short (below the remembered length): only the URL rule hides it', password: 'Z@/"k', markers: ['Z@/"k'], raw: true },
];

const ADMIN_PASSWORD = 'admin-Kx9-never-print';
let server: UserValkey;
let admin: Redis;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'fencecheck-secrets-'));
  server = await startUserValkey({ password: ADMIN_PASSWORD });
  admin = server.admin();
  await admin.connect();
  await admin.call('ACL', 'SETUSER', 'admin', 'on', `>${ADMIN_PASSWORD}`, '~*', '&*', '+@all');
  await admin.auth('admin', ADMIN_PASSWORD);
}, 60_000);
afterAll(async () => {
  admin?.disconnect();
  await stopUserValkeys();
  rmSync(work, { recursive: true, force: true });
});

/** Every file under `dir` (the verify reports and stage logs), as text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push({ path: p, text: readFileSync(p, 'utf8') });
  }
  return out;
}

/** The forms a password could take in an output. */
function leaks(c: Case, text: string): string[] {
  const found = c.markers.filter((m) => text.includes(m));
  for (const form of [c.password, encodeURIComponent(c.password), JSON.stringify(c.password).slice(1, -1)]) if (form.length >= 3 && text.includes(form)) found.push(form);
  return found;
}

describe.each(CASES)('password: $name', (c) => {
  const outputs: { what: string; text: string }[] = [];
  const keep = (what: string, r: CliRun) => outputs.push({ what: `${what} stdout`, text: r.out }, { what: `${what} stderr`, text: r.err });
  const port = () => server.port;
  // Every way to write it: raw and encoded; the default user and an ACL user; with and without a scheme.
  const forms = () => {
    const enc = encodeURIComponent(c.password);
    const raw = c.raw ? c.password : enc;
    return {
      aclRaw: `redis://alice:${raw}@127.0.0.1:${port()}`,
      defaultEncoded: `redis://:${enc}@127.0.0.1:${port()}`,
      bare: `alice:${raw}@127.0.0.1:${port()}`,
      valkeyScheme: `valkey://alice:${enc}@127.0.0.1:${port()}`,
      wrong: `redis://alice:${raw}X@127.0.0.1:${port()}`,
      malformed: `redis://:${raw}@127.0.0.1:notaport`,
    };
  };

  beforeAll(async () => {
    await admin.call('CONFIG', 'SET', 'requirepass', c.password);
    await admin.call('ACL', 'SETUSER', 'alice', 'reset', 'on', `>${c.password}`, '~*', '&*', '+@all');
  });

  // The commands of one password run at once (separate processes, each with its own key prefix on the
  // server): the file's time is its slowest command, not their sum.
  it('the right password works everywhere (raw and encoded, default and ACL user, bare and valkey://)', async () => {
    const f = forms();
    const [props, propsDefault, bare, gate, slot, lua] = await Promise.all([
      fencecheckCli(['props', '--topology', 'standalone', '--runs', '1', '--json'], { FENCECHECK_VALKEY_URL: f.aclRaw }),
      fencecheckCli(['props', '--topology', 'standalone', '--runs', '1'], { FENCECHECK_VALKEY_URL: f.defaultEncoded }),
      fencecheckCli(['props', '--topology', 'standalone', '--runs', '1', '--json'], { FENCECHECK_VALKEY_URL: f.bare }),
      fencecheckCli(['gate', '--check', 'advance', '--url', f.valkeyScheme, '--target', 'A', '--pods', 'p1=A', '--json'], {}),
      fencecheckCli(['slot', '--check', '--node', f.aclRaw, 'k1'], {}),
      fencecheckCli(['lua-check', '--node', f.defaultEncoded, '--json'], {}),
    ]);
    keep('props (ACL user, raw)', props);
    keep('props (default user, encoded)', propsDefault);
    keep('props (scheme-less)', bare);
    keep('gate --url', gate);
    keep('slot --check --node', slot);
    keep('lua-check --node', lua);
    expect(props.code, props.out + props.err).toBe(0);
    expect(propsDefault.code, propsDefault.out + propsDefault.err).toBe(0);
    expect(bare.code, bare.out + bare.err).toBe(0);
    expect([0, 1], gate.out + gate.err).toContain(gate.code);
    // Authenticated (past AUTH), and refused as a standalone node asked a cluster question.
    expect(slot.code, slot.out + slot.err).toBe(2);
    expect(slot.err).toMatch(/cluster support disabled/);
    expect(lua.code, lua.out + lua.err).toBe(0);
  }, 240_000);

  it('a wrong password and a malformed endpoint name the endpoint with the password masked', async () => {
    const f = forms();
    const [wrong, gate, malformed, node] = await Promise.all([
      fencecheckCli(['props', '--topology', 'standalone', '--runs', '1', '--json'], { FENCECHECK_VALKEY_URL: f.wrong }),
      fencecheckCli(['gate', '--check', 'advance', '--url', f.wrong, '--target', 'A', '--pods', 'p1=A'], {}),
      fencecheckCli(['props', '--runs', '1'], { FENCECHECK_VALKEY_URL: f.malformed }),
      fencecheckCli(['slot', '--check', '--node', f.malformed, 'k'], {}),
    ]);
    keep('props (wrong password)', wrong);
    keep('gate --url (wrong password)', gate);
    keep('props (malformed)', malformed);
    keep('slot --node (malformed)', node);
    expect(wrong.code, wrong.out + wrong.err).toBe(2);
    expect(wrong.out + wrong.err).toMatch(/redis:\/\/alice:\*\*\*@127\.0\.0\.1/);
    expect(gate.code, gate.out + gate.err).toBe(2);
    expect(malformed.code, malformed.err).toBe(3);
    expect(malformed.err).toMatch(/^fencecheck props: FENCECHECK_VALKEY_URL: not a valkey endpoint: 'redis:\/\/\*\*\*@127\.0\.0\.1:notaport'/);
    expect(node.code).toBe(64);
  }, 240_000);

  it('verify writes its reports and stage logs without the password (a passing and a failing run)', async () => {
    if (c !== CASES[0] && c !== CASES[1] && c !== CASES[6] && c !== CASES[7]) return; // verify is slow: four passwords cover every character
    const f = forms();
    for (const [label, url] of [
      ['passing', f.aclRaw],
      ['failing', f.wrong],
    ] as const) {
      const out = join(work, `verify-${CASES.indexOf(c)}-${label}`);
      const r = await fencecheckCli(['verify', '--stages', 'props,lua-check', '--runs', '1', '--topology', 'standalone', '--out', out], { FENCECHECK_VALKEY_URL: url }, { timeoutMs: 300_000 });
      keep(`verify (${label})`, r);
      expect(r.code, r.out + r.err).toBe(label === 'passing' ? 0 : 1);
      const files = filesUnder(out);
      for (const name of ['verify.json', 'verify.md', 'verify.html', 'junit.xml']) expect(files.map((x) => x.path)).toContain(join(out, name));
      expect(files.some((x) => x.path.includes(`${join(out, 'stages')}/`) && x.path.endsWith('.log'))).toBe(true);
      if (label === 'failing') expect(files.find((x) => x.path.endsWith('verify.json'))!.text).toMatch(/alice:\*\*\*@127\.0\.0\.1/);
      for (const x of files) outputs.push({ what: `verify (${label}) ${x.path.slice(out.length + 1)}`, text: x.text });
    }
  }, 600_000);

  it('no output, report or log carries any piece of the password', () => {
    expect(outputs.length).toBeGreaterThan(0);
    const found = outputs.map((o) => ({ what: o.what, leaked: leaks(c, o.text) })).filter((o) => o.leaked.length > 0);
    expect(found).toEqual([]);
  });
});
