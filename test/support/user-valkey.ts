/**
 * A valkey-server the harness did NOT start — a user's own server, unknown to the process registry —
 * for tests of endpoints given through FENCECHECK_VALKEY_URL: optional password, ACL users, and TLS
 * (a TLS port, alone or beside the plain one). Stopped by PID; its folder removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freeLoopbackPort } from '../../src/valkey/ports.js';
import { delay, waitUntil } from '../../src/valkey/wait.js';
import { writeServerTlsFiles, type TlsMaterial } from '../../src/valkey/tls-material.js';

export interface UserValkey {
  /** The plain port (0 when the server is TLS-only). */
  readonly port: number;
  readonly tlsPort?: number;
  readonly pid: number;
  /** An admin connection (plain when there is a plain port, else TLS with the client certificate). */
  admin(): Redis;
  stop(): Promise<void>;
}

export interface UserValkeyOptions {
  /** requirepass (the default user's password). */
  readonly password?: string;
  readonly tls?: { readonly material: TlsMaterial; readonly plainPort: boolean; readonly authClients?: 'yes' | 'no' | 'optional' };
  readonly args?: readonly string[];
}

const running = new Set<UserValkey>();

export async function startUserValkey(o: UserValkeyOptions = {}): Promise<UserValkey> {
  const dir = mkdtempSync(join(tmpdir(), 'user-valkey-'));
  const port = o.tls && !o.tls.plainPort ? 0 : await freeLoopbackPort();
  const tlsPort = o.tls ? await freeLoopbackPort() : undefined;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', join(dir, 'log')];
  if (o.password !== undefined) args.push('--requirepass', o.password);
  if (o.tls) {
    const f = writeServerTlsFiles(o.tls.material, dir);
    args.push('--tls-port', String(tlsPort), '--tls-cert-file', f.certFile, '--tls-key-file', f.keyFile, '--tls-ca-cert-file', f.caFile, '--tls-auth-clients', o.tls.authClients ?? 'yes');
  }
  args.push(...(o.args ?? []));
  const child: ChildProcess = spawn('valkey-server', args, { stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  const admin = (): Redis => {
    // The test's own admin line: the CA is checked, the name is not (a certificate may name another host on purpose).
    const tls = o.tls && port === 0 ? { tls: { ca: o.tls.material.caCert, cert: o.tls.material.clientCert, key: o.tls.material.clientKey, checkServerIdentity: () => undefined } } : {};
    const c = new Redis({
      host: '127.0.0.1',
      port: port || tlsPort!,
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      ...(o.password !== undefined && { password: o.password }),
      ...tls,
    });
    c.on('error', () => {});
    return c;
  };
  const server: UserValkey = {
    port,
    ...(tlsPort !== undefined && { tlsPort }),
    pid: child.pid!,
    admin,
    async stop() {
      running.delete(server);
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(child.pid!, 'SIGTERM');
        if ((await Promise.race([exited.then(() => true), delay(3000).then(() => false)])) === false) process.kill(child.pid!, 'SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(server);
  try {
    await waitUntil(
      `user valkey-server on ${port || tlsPort}`,
      async () => {
        const c = admin();
        try {
          await c.connect();
          return (await c.ping()) === 'PONG';
        } catch {
          return false;
        } finally {
          c.disconnect();
        }
      },
      15_000,
    );
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/** Stops every server still running (an afterAll of each file that starts some). */
export async function stopUserValkeys(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
}
