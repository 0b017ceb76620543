/**
 * The environment check (src/core/env.ts): every FENCECHECK_* variable has a rule, the docs list
 * exactly the variables the table knows, and each kind of bad value is one line naming the variable
 * and what it allows. The CLI side (exit 3 before anything starts) is in test/cli/bad-input.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowed, checkEnvironment, ENV_VARS, envInt, environmentProblems, EnvError, MAX_TIMER_MS } from '../../src/core/env.js';
import { forgetSecrets, maskSecrets } from '../../src/core/secrets.js';
import { projectRoot } from '../../src/core/project-root.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fencecheck-env-'));
  writeFileSync(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  writeFileSync(join(dir, 'not.pem'), 'hello');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  forgetSecrets();
});

describe('the table and the docs', () => {
  it('docs/valkey.md ("Environment") lists exactly the variables of src/core/env.ts, with what each allows', () => {
    const doc = readFileSync(join(projectRoot, 'docs/valkey.md'), 'utf8');
    const from = doc.indexOf('<!-- env-vars:');
    const table = doc.slice(from, doc.indexOf('\n## ', from));
    const rows = [...table.matchAll(/^\| `(FENCECHECK_[A-Z0-9_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()] as const);
    expect(rows.map(([n]) => n).sort()).toEqual(Object.keys(ENV_VARS).sort());
    for (const [name, cell] of rows) {
      const spec = ENV_VARS[name as keyof typeof ENV_VARS].spec;
      if (spec.kind === 'int' || spec.kind === 'choice' || spec.kind === 'flag' || spec.kind === 'pem' || spec.kind === 'int-list') expect(allowed(spec), name).toContain(cell);
    }
  });

  it('every FENCECHECK_ name the source reads has a rule', () => {
    const used = new Set(execFileSync('grep', ['-rhoE', 'FENCECHECK_[A-Z0-9_]+', 'src', 'bench', 'bin', 'test'], { cwd: projectRoot, encoding: 'utf8' }).split('\n').filter(Boolean));
    const unknown = [...used].filter((n) => !(n in ENV_VARS) && !/_$/.test(n) && n !== 'FENCECHECK_VALKEY_URI' && n !== 'FENCECHECK_NOPE');
    expect(unknown).toEqual([]);
  });
});

describe('environmentProblems', () => {
  const one = (env: Record<string, string>) => environmentProblems(env);

  it('a good environment has none; empty values are unset', () => {
    expect(
      one({ FENCECHECK_COMMAND_TIMEOUT_MS: '3000', FENCECHECK_VALKEY_URL: 'redis://:pw@127.0.0.1:6379', FENCECHECK_ALLOW_DESTRUCTIVE: '', FENCECHECK_VALKEY_PROVIDER: 'native', HOME: '/x' }),
    ).toEqual([]);
    expect(one({})).toEqual([]);
  });

  it('integers: out of range, malformed, beyond a timer (3000000000 was cut to 1 ms)', () => {
    expect(one({ FENCECHECK_COMMAND_TIMEOUT_MS: '3000000000' })).toEqual([`FENCECHECK_COMMAND_TIMEOUT_MS=3000000000 is not an integer from 1 to ${MAX_TIMER_MS} (milliseconds)`]);
    for (const bad of ['0', '-5', '1e3', '0x10', '1.5', 'ten', ' '])
      expect(one({ FENCECHECK_CONNECT_TIMEOUT_MS: bad }), bad).toEqual([expect.stringMatching(/^FENCECHECK_CONNECT_TIMEOUT_MS=.* is not an integer from 1 to/)]);
    expect(one({ FENCECHECK_BENCH_GATE_SIZES: '100,x' })[0]).toMatch(/FENCECHECK_BENCH_GATE_SIZES=x is not comma-separated integers from 1/);
    expect(envInt('FENCECHECK_COMMAND_TIMEOUT_MS', 7, {})).toBe(7);
    expect(() => envInt('FENCECHECK_COMMAND_TIMEOUT_MS', 7, { FENCECHECK_COMMAND_TIMEOUT_MS: '2147483648' })).toThrow(EnvError);
  });

  it('endpoints: malformed (garbage started a server first), a plain endpoint beside TLS material, mixed seeds', () => {
    expect(one({ FENCECHECK_VALKEY_URL: 'garbage' })).toEqual([`FENCECHECK_VALKEY_URL: not a valkey endpoint: 'garbage' (expected host:port or redis://[user:password@]host:port; rediss:// for TLS)`]);
    expect(one({ FENCECHECK_VALKEY_CLUSTER: 'h:1,rediss://g:2' })[0]).toMatch(/mixes rediss:\/\/ and plain seeds/);
    expect(one({ FENCECHECK_VALKEY_URL: 'redis://h:1', FENCECHECK_TLS_CA: join(dir, 'ca.pem') })[0]).toMatch(
      /FENCECHECK_TLS_CA is set but FENCECHECK_VALKEY_URL is not a rediss:\/\/ \(TLS\) endpoint/,
    );
    expect(one({ FENCECHECK_VALKEY_URL: 'rediss://h:1', FENCECHECK_TLS_CA: join(dir, 'ca.pem') })).toEqual([]);
    expect(one({ FENCECHECK_VALKEY_CLUSTER: ',' })[0]).toMatch(/names no endpoint/);
  });

  it('a malformed endpoint never shows its password, and a good one is remembered for the mask', () => {
    forgetSecrets();
    const [p] = one({ FENCECHECK_VALKEY_URL: 'redis://:Pw Secret/9@h:notaport' });
    expect(p).not.toMatch(/Pw|Secret/);
    one({ FENCECHECK_VALKEY_URL: 'redis://:Pw Secret/9@h:1' });
    expect(maskSecrets('the Pw Secret/9 is out')).toBe('the *** is out');
  });

  it('files, flags, choices, unknown names, a certificate without its key', () => {
    expect(one({ FENCECHECK_TLS_CA: join(dir, 'not.pem'), FENCECHECK_VALKEY_URL: 'rediss://h:1' })[0]).toMatch(/FENCECHECK_TLS_CA=.*not\.pem is not PEM/);
    expect(one({ FENCECHECK_TLS_CA: join(dir, 'nope.pem'), FENCECHECK_VALKEY_URL: 'rediss://h:1' })[0]).toMatch(/cannot read it \(ENOENT\)/);
    expect(one({ FENCECHECK_TLS_CA: dir, FENCECHECK_VALKEY_URL: 'rediss://h:1' })[0]).toMatch(/is not a regular file/);
    expect(one({ FENCECHECK_TLS_CERT: join(dir, 'ca.pem'), FENCECHECK_VALKEY_URL: 'rediss://h:1' })).toEqual([
      'FENCECHECK_TLS_CERT is set without FENCECHECK_TLS_KEY: a client certificate needs both',
    ]);
    expect(one({ FENCECHECK_ALLOW_DESTRUCTIVE: 'yes' })).toEqual(['FENCECHECK_ALLOW_DESTRUCTIVE=yes is not 0 or 1']);
    expect(one({ FENCECHECK_VALKEY_PROVIDER: 'cloud' })).toEqual(['FENCECHECK_VALKEY_PROVIDER=cloud is not one of auto, native, testcontainers, external']);
    expect(one({ FENCECHECK_VALKEY_URI: 'h:1' })[0]).toMatch(/^FENCECHECK_VALKEY_URI is not a fencecheck variable \(did you mean FENCECHECK_VALKEY_URL\?\)/);
    expect(one({ FENCECHECK_NOPE: '1' })[0]).toMatch(/^FENCECHECK_NOPE is not a fencecheck variable; /);
    expect(() => checkEnvironment({ FENCECHECK_VERBOSE: '2', FENCECHECK_PROGRESS: 'fancy' })).toThrow(/FENCECHECK_PROGRESS=fancy is not one of auto, plain; FENCECHECK_VERBOSE=2 is not 0 or 1/);
  });
});
