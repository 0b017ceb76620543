import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { envValue } from '../core/env.js';

/**
 * What a TLS connection (rediss://, valkeys://) verifies and presents. From the environment for an
 * endpoint the user names (tlsFromEnvironment), or made by the harness for a TLS topology it
 * starts (src/valkey/tls-material.ts). The server certificate is always verified: there is no
 * "insecure" mode.
 */
export interface TlsSettings {
  /** PEM: the CA certificate(s) the server certificate must chain to (default: Node's CA store). */
  readonly ca?: string | Buffer;
  /** PEM: a client certificate and its key, for servers started with tls-auth-clients yes. */
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  /** The name the server certificate must carry, also sent as SNI (default: the host). */
  readonly servername?: string;
}

/**
 * FENCECHECK_TLS_CA, FENCECHECK_TLS_CERT, FENCECHECK_TLS_KEY, FENCECHECK_TLS_SERVERNAME (checked at
 * start-up by src/core/env.ts; read here when a rediss:// endpoint is parsed).
 */
export function tlsFromEnvironment(env: NodeJS.ProcessEnv = process.env): TlsSettings {
  const file = (name: 'FENCECHECK_TLS_CA' | 'FENCECHECK_TLS_CERT' | 'FENCECHECK_TLS_KEY') => {
    const path = envValue(name, env);
    return path === undefined ? undefined : readFileSync(path);
  };
  const ca = file('FENCECHECK_TLS_CA');
  const cert = file('FENCECHECK_TLS_CERT');
  const key = file('FENCECHECK_TLS_KEY');
  const servername = envValue('FENCECHECK_TLS_SERVERNAME', env);
  return { ...(ca && { ca }), ...(cert && { cert }), ...(key && { key }), ...(servername !== undefined && { servername }) };
}

/** The options ioredis hands to tls.connect. */
export function tlsConnectionOptions(t: TlsSettings): ConnectionOptions {
  return {
    ...(t.ca !== undefined && { ca: t.ca }),
    ...(t.cert !== undefined && { cert: t.cert }),
    ...(t.key !== undefined && { key: t.key }),
    ...(t.servername !== undefined && { servername: t.servername }),
    rejectUnauthorized: true,
  };
}
