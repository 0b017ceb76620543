import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValkeyUnavailableError } from './errors.js';
import { ownedTempDir, removeTempDir } from '../core/temp-dir.js';

/**
 * Throwaway certificates for a TLS topology the harness starts (and for tests): a CA valid for one
 * day, a server certificate for 127.0.0.1 / localhost and a client certificate, both signed by it,
 * EC P-256 (fast to make). Made with the `openssl` command line (Node can sign no certificate), in
 * a temporary folder removed before this returns: the PEM texts live in memory; each node gets its
 * own copy of the server's files in its data dir.
 */
export interface TlsMaterial {
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

/** The subject alternative names of the server certificate. */
export const SERVER_NAMES = ['IP:127.0.0.1', 'DNS:localhost'] as const;

function openssl(args: readonly string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') throw new ValkeyUnavailableError('a TLS topology needs the openssl command to make its certificates, and there is none on PATH', { cause: err });
    const why = e.stderr?.toString().trim().split('\n')[0] ?? e.message;
    throw new ValkeyUnavailableError(`openssl ${args[0]} failed making the TLS certificates: ${why}`, { cause: err });
  }
}

/** A new CA, server and client certificate (see TlsMaterial). */
export function makeTlsMaterial(opts: { serverNames?: readonly string[] } = {}): TlsMaterial {
  // Owned (named by this process): a stage SIGKILLed in the middle of openssl left an anonymous
  // fencecheck-tls-* folder no reaper could tell from another's; this one the next reaper removes.
  const dir = ownedTempDir('tls');
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=fencecheck throwaway CA'], dir);
    writeFileSync(join(dir, 'server.ext'), `subjectAltName=${(opts.serverNames ?? SERVER_NAMES).join(',')}\n`);
    for (const who of ['server', 'client'] as const) {
      openssl(['req', ...ec, '-keyout', `${who}.key`, '-out', `${who}.csr`, '-subj', `/CN=fencecheck ${who}`], dir);
      const ext = who === 'server' ? ['-extfile', 'server.ext'] : [];
      openssl(['x509', '-req', '-in', `${who}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', who === 'server' ? '1' : '2', '-days', '1', '-out', `${who}.crt`, ...ext], dir);
    }
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return { caCert: read('ca.crt'), serverCert: read('server.crt'), serverKey: read('server.key'), clientCert: read('client.crt'), clientKey: read('client.key') };
  } finally {
    removeTempDir(dir);
  }
}

/** The server's files in `dir` (a node's data dir), for valkey-server's tls-*-file options. */
export function writeServerTlsFiles(material: TlsMaterial, dir: string): { certFile: string; keyFile: string; caFile: string } {
  const files = { certFile: join(dir, 'tls-server.crt'), keyFile: join(dir, 'tls-server.key'), caFile: join(dir, 'tls-ca.crt') };
  writeFileSync(files.certFile, material.serverCert, { mode: 0o600 });
  writeFileSync(files.keyFile, material.serverKey, { mode: 0o600 });
  writeFileSync(files.caFile, material.caCert, { mode: 0o600 });
  return files;
}

/**
 * Why a node that was asked for TLS did not start, when its log says it is about TLS (a server
 * built without BUILD_TLS=yes panics "Failed finding connection listener of tls"; a bad
 * certificate logs "Failed to configure TLS"); undefined otherwise.
 */
export function tlsStartFailure(log: string): string | undefined {
  const line = log
    .split('\n')
    .reverse()
    .find((l) => /\btls\b|TLS/.test(l));
  if (line === undefined) return undefined;
  const text = line.replace(/^\d+:[A-Z] [^*#]*[*#] /, '').trim();
  return /connection listener of tls|Unsupported|not supported|Bad directive/i.test(text)
    ? `this valkey-server cannot serve TLS (built without BUILD_TLS=yes?): ${text}`
    : `valkey-server could not set up TLS: ${text}`;
}
