import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../core/project-root.js';

/** Where scripts/setup-tlc installs the official release jar (gitignored). */
export const PROJECT_JAR = '.tools/tla2tools.jar';

export const NO_JAR_REASON = 'no tla2tools.jar (set TLA2TOOLS_JAR)';
export const NO_JAVA_REASON = 'no Java (install a JRE >= 11, or set JAVA_HOME)';

export interface TlcTools {
  readonly java: string;
  readonly jar: string;
}

export type Located = { readonly ok: true; readonly tools: TlcTools } | { readonly ok: false; readonly reason: string };

/** `TLA2TOOLS_JAR`, then `.tools/tla2tools.jar`; a set-but-missing TLA2TOOLS_JAR is its own reason. */
type Found<K extends string> = ({ readonly ok: true } & Readonly<Record<K, string>>) | { readonly ok: false; readonly reason: string };

export function findJar(env: NodeJS.ProcessEnv = process.env, root = projectRoot): Found<'jar'> {
  const fromEnv = env['TLA2TOOLS_JAR'];
  if (fromEnv !== undefined && fromEnv !== '') {
    const p = resolve(fromEnv);
    return existsSync(p) ? { ok: true, jar: p } : { ok: false, reason: `TLA2TOOLS_JAR=${fromEnv} does not exist` };
  }
  const local = join(root, PROJECT_JAR);
  return existsSync(local) ? { ok: true, jar: local } : { ok: false, reason: NO_JAR_REASON };
}

/** `$JAVA_HOME/bin/java`, then `java` on PATH; probed with `-version`. */
export function findJava(env: NodeJS.ProcessEnv = process.env): Found<'java'> {
  const home = env['JAVA_HOME'];
  const candidates = [...(home ? [join(home, 'bin', 'java')] : []), 'java'];
  for (const java of candidates) {
    const probe = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...env } });
    if (!probe.error && probe.status === 0) return { ok: true, java };
  }
  return { ok: false, reason: NO_JAVA_REASON };
}

/** Both tools, or the first reason TLC cannot run here (jar first: it is the usual gap). */
export function locateTlc(env: NodeJS.ProcessEnv = process.env, root = projectRoot): Located {
  const jar = findJar(env, root);
  if (!jar.ok) return jar;
  const java = findJava(env);
  if (!java.ok) return java;
  return { ok: true, tools: { java: java.java, jar: jar.jar } };
}
