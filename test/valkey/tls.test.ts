/**
 * rediss:// ("Endpoints and secrets"): a real valkey-server started with --tls-port and
 * certificates this test makes (openssl), requiring client certificates, with a password. Through
 * FENCECHECK_VALKEY_URL=rediss://… and FENCECHECK_TLS_CA / _CERT / _KEY / _SERVERNAME the harness
 * connects with TLS (library and CLI); without the client certificate, with another CA, or with a
 * certificate for another name it does not (exit 2, one line). A plain listener at a rediss://
 * address hears a TLS handshake, never the password (before: `HELLO 3 AUTH rediss //:SECRET` in
 * clear text). The figures (connect time, commands/s over TLS vs plain) are printed, not asserted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { closeClient, nodeClient } from '../../src/valkey/index.js';
import { parseEndpoint, startExternal } from '../../src/valkey/external.js';
import { makeTlsMaterial, tlsStartFailure, type TlsMaterial } from '../../src/valkey/tls-material.js';
import { startUserValkey, stopUserValkeys, type UserValkey } from '../support/user-valkey.js';
import { fencecheckCli } from '../support/cli.js';

const PASSWORD = 'tls-pw-Qz7/never:print@';
let material: TlsMaterial;
let other: TlsMaterial;
let server: UserValkey;
let named: UserValkey;
let pems: string;
const pem = (name: string) => join(pems, name);

beforeAll(async () => {
  material = makeTlsMaterial();
  // Another CA, and a server certificate that names only valkey.test (not 127.0.0.1).
  other = makeTlsMaterial({ serverNames: ['DNS:valkey.test'] });
  pems = mkdtempSync(join(tmpdir(), 'fencecheck-tls-test-'));
  for (const [f, text] of Object.entries({
    'ca.crt': material.caCert,
    'client.crt': material.clientCert,
    'client.key': material.clientKey,
    'other-ca.crt': other.caCert,
    'other-client.crt': other.clientCert,
    'other-client.key': other.clientKey,
  }))
    writeFileSync(pem(f), text);
  server = await startUserValkey({ password: PASSWORD, tls: { material, plainPort: true } });
  named = await startUserValkey({ tls: { material: other, plainPort: false } });
}, 60_000);
afterAll(async () => {
  await stopUserValkeys();
  rmSync(pems, { recursive: true, force: true });
});

const TLS_VARS = ['FENCECHECK_VALKEY_URL', 'FENCECHECK_TLS_CA', 'FENCECHECK_TLS_CERT', 'FENCECHECK_TLS_KEY', 'FENCECHECK_TLS_SERVERNAME'] as const;
const saved = Object.fromEntries(TLS_VARS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of TLS_VARS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const url = (port: number, scheme = 'rediss') => `${scheme}://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;
const clientVars = (set: 'ours' | 'other' = 'ours') => ({
  FENCECHECK_TLS_CA: pem(set === 'ours' ? 'ca.crt' : 'other-ca.crt'),
  FENCECHECK_TLS_CERT: pem(set === 'ours' ? 'client.crt' : 'other-client.crt'),
  FENCECHECK_TLS_KEY: pem(set === 'ours' ? 'client.key' : 'other-client.key'),
});

describe('rediss:// connects with TLS', () => {
  it('startExternal over the TLS port: commands work, the password and the certificates are used', async () => {
    Object.assign(process.env, { FENCECHECK_VALKEY_URL: url(server.tlsPort!), ...clientVars() });
    const topo = await startExternal({ kind: 'standalone' });
    const c = topo.client();
    try {
      expect(await c.set('tls:k', 'v')).toBe('OK');
      expect(await c.get('tls:k')).toBe('v');
      // The TLS port speaks nothing but TLS: an answer on it was a TLS connection.
      expect(topo.nodes[0]).toMatchObject({ host: '127.0.0.1', port: server.tlsPort });
    } finally {
      await closeClient(c);
      await topo.stop();
    }
  });

  it('the CLI over TLS: props --topology standalone passes; nothing shows the password', async () => {
    const r = await fencecheckCli(['props', '--topology', 'standalone', '--runs', '1'], { FENCECHECK_VALKEY_URL: url(server.tlsPort!), ...clientVars() });
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out + r.err).not.toContain(PASSWORD);
    expect(r.out + r.err).not.toContain(encodeURIComponent(PASSWORD));
  });

  it('without the client certificate, or with another CA: not run (2), one line, no password', async () => {
    const noCert = await fencecheckCli(['props', '--topology', 'standalone', '--runs', '1'], {
      FENCECHECK_VALKEY_URL: url(server.tlsPort!),
      FENCECHECK_TLS_CA: pem('ca.crt'),
      FENCECHECK_CONNECT_TIMEOUT_MS: '2000',
      FENCECHECK_COMMAND_TIMEOUT_MS: '3000',
    });
    expect(noCert.code, noCert.out + noCert.err).toBe(2);
    const wrongCa = await fencecheckCli(['props', '--topology', 'standalone', '--runs', '1'], {
      FENCECHECK_VALKEY_URL: url(server.tlsPort!),
      ...clientVars('other'),
      FENCECHECK_CONNECT_TIMEOUT_MS: '2000',
      FENCECHECK_COMMAND_TIMEOUT_MS: '3000',
    });
    expect(wrongCa.code, wrongCa.out + wrongCa.err).toBe(2);
    expect(wrongCa.out + wrongCa.err).toMatch(/certificate/i);
    for (const r of [noCert, wrongCa]) {
      expect(r.out + r.err).not.toContain(PASSWORD);
      expect(`${r.out}${r.err}`.trim().split('\n'), `one line: ${r.out}${r.err}`).toHaveLength(1);
    }
  });

  it('FENCECHECK_TLS_SERVERNAME: a certificate for valkey.test is refused at 127.0.0.1, and accepted with that name', async () => {
    const base = { FENCECHECK_VALKEY_URL: `rediss://127.0.0.1:${named.tlsPort}`, ...clientVars('other'), FENCECHECK_CONNECT_TIMEOUT_MS: '2000', FENCECHECK_COMMAND_TIMEOUT_MS: '3000' };
    const refused = await fencecheckCli(['props', '--topology', 'standalone', '--runs', '1'], base);
    expect(refused.code, refused.out + refused.err).toBe(2);
    expect(refused.out + refused.err).toMatch(/altnames|does not match|valkey\.test/i);
    const ok = await fencecheckCli(['props', '--topology', 'standalone', '--runs', '1'], { ...base, FENCECHECK_TLS_SERVERNAME: 'valkey.test' });
    expect(ok.code, ok.out + ok.err).toBe(0);
  });

  it('a rediss:// endpoint at a plain listener hears a TLS handshake, never the password', async () => {
    const heard: Buffer[] = [];
    const sockets: Socket[] = [];
    const listener = createServer((s) => {
      sockets.push(s);
      s.on('data', (d: Buffer) => heard.push(d));
      s.on('error', () => {});
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    const port = (listener.address() as { port: number }).port;
    try {
      const r = await fencecheckCli(['props', '--topology', 'standalone', '--runs', '1'], {
        FENCECHECK_VALKEY_URL: url(port).replace(encodeURIComponent(PASSWORD), PASSWORD),
        ...clientVars(),
        FENCECHECK_CONNECT_TIMEOUT_MS: '1000',
        FENCECHECK_COMMAND_TIMEOUT_MS: '1500',
      });
      expect(r.code, r.out + r.err).toBe(2);
      const bytes = Buffer.concat(heard);
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes[0], 'a TLS handshake record (0x16) first').toBe(0x16);
      expect(bytes.toString('latin1')).not.toContain(PASSWORD);
      expect(bytes.toString('latin1')).not.toMatch(/HELLO|AUTH/);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => listener.close(r));
    }
  });

  it('parseEndpoint: rediss:// and valkeys:// are TLS with the environment material; redis:// is not', () => {
    Object.assign(process.env, clientVars());
    expect(parseEndpoint('rediss://h:1').tls?.ca?.toString()).toBe(material.caCert);
    expect(parseEndpoint('valkeys://u:p@h:1')).toMatchObject({ username: 'u', password: 'p', tls: { cert: expect.anything(), key: expect.anything() } });
    expect(parseEndpoint('redis://h:1').tls).toBeUndefined();
    expect(parseEndpoint(`rediss://:${PASSWORD}@h:1`)).toMatchObject({ host: 'h', port: 1, password: PASSWORD });
  });

  it('a server log saying it cannot serve TLS becomes one clear line', () => {
    expect(tlsStartFailure('123:M 01 Jan 2026 00:00:00.000 # Failed finding connection listener of tls')).toMatch(
      /^this valkey-server cannot serve TLS \(built without BUILD_TLS=yes\?\): Failed finding connection listener of tls$/,
    );
    expect(tlsStartFailure('1:M 01 Jan 00:00:00.000 # Failed to configure TLS. Check logs for more info.')).toMatch(/^valkey-server could not set up TLS: Failed to configure TLS/);
    expect(tlsStartFailure('1:M * Ready to accept connections')).toBeUndefined();
  });
});

describe('figures (printed, not asserted)', () => {
  it('connect time and commands/s, TLS vs plain, on the same server', async () => {
    const tls = { ca: material.caCert, cert: material.clientCert, key: material.clientKey };
    const measure = async (useTls: boolean) => {
      const connects: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        const c = nodeClient({ host: '127.0.0.1', port: useTls ? server.tlsPort! : server.port, password: PASSWORD, ...(useTls && { tls }) });
        await c.ping();
        connects.push(performance.now() - t0);
        await closeClient(c);
      }
      const c = nodeClient({ host: '127.0.0.1', port: useTls ? server.tlsPort! : server.port, password: PASSWORD, ...(useTls && { tls }) });
      try {
        await c.ping();
        const rate = async (inFlight: number) => {
          let n = 0;
          const t0 = performance.now();
          await Promise.all(
            Array.from({ length: inFlight }, async () => {
              while (performance.now() - t0 < 1000) {
                await c.set('fig:k', 'v');
                n++;
              }
            }),
          );
          return n / ((performance.now() - t0) / 1000);
        };
        return { connectMs: connects.sort((a, b) => a - b)[10]!, sequential: await rate(1), pipelined: await rate(32) };
      } finally {
        await closeClient(c);
      }
    };
    // Warm both paths first, then measure each twice, interleaved; the better of the two counts.
    await measure(false);
    await measure(true);
    const runs = [await measure(false), await measure(true), await measure(false), await measure(true)];
    const best = (xs: typeof runs) => ({
      connectMs: Math.min(...xs.map((x) => x.connectMs)),
      sequential: Math.max(...xs.map((x) => x.sequential)),
      pipelined: Math.max(...xs.map((x) => x.pipelined)),
    });
    const plain = best([runs[0]!, runs[2]!]);
    const overTls = best([runs[1]!, runs[3]!]);
    const f = (n: number) => Math.round(n).toLocaleString('en-US');
    process.stdout.write(
      `tls figures: connect+PING median ${plain.connectMs.toFixed(1)} ms plain, ${overTls.connectMs.toFixed(1)} ms TLS; ` +
        `SET/s sequential ${f(plain.sequential)} plain, ${f(overTls.sequential)} TLS (${(overTls.sequential / plain.sequential).toFixed(2)}); ` +
        `32 in flight ${f(plain.pipelined)} plain, ${f(overTls.pipelined)} TLS (${(overTls.pipelined / plain.pipelined).toFixed(2)})\n`,
    );
    // The server answered both ways: a check that the figures measured something.
    const admin: Redis = server.admin();
    await admin.connect();
    expect(await admin.get('fig:k')).toBe('v');
    admin.disconnect();
  }, 120_000);
});
