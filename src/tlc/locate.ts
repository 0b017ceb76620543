import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { projectRoot } from '../core/project-root.js';

/** Where scripts/setup-tlc installs the official release jar (gitignored). */
export const PROJECT_JAR = '.tools/tla2tools.jar';

export const NO_JAR_REASON = 'no tla2tools.jar (set TLA2TOOLS_JAR)';
export const NO_JAVA_REASON = 'no Java (install a JRE >= 11, or set JAVA_HOME)';

export interface TlcTools {
  readonly java: string;
  readonly jar: string;
  /** More classpath entries given with the jar (TLA2TOOLS_JAR=tla2tools.jar:modules.jar). */
  readonly classpath?: readonly string[];
}

export type Located = { readonly ok: true; readonly tools: TlcTools } | { readonly ok: false; readonly reason: string };

/** `TLA2TOOLS_JAR`, then `.tools/tla2tools.jar`; a set-but-missing TLA2TOOLS_JAR is its own reason. */
type Found<K extends string> = ({ readonly ok: true } & Readonly<Record<K, string>>) | { readonly ok: false; readonly reason: string };

/**
 * `TLA2TOOLS_JAR` (the jar, or a classpath that starts with it: `tla2tools.jar:CommunityModules-deps.jar`,
 * every entry must exist), then `.tools/tla2tools.jar`.
 */
export function findJar(env: NodeJS.ProcessEnv = process.env, root = projectRoot): (Found<'jar'> & { readonly classpath?: readonly string[] }) | { readonly ok: false; readonly reason: string } {
  const fromEnv = env.TLA2TOOLS_JAR;
  if (fromEnv !== undefined && fromEnv !== '') {
    const entries = fromEnv.split(delimiter).filter((e) => e !== '');
    const missing = entries.find((e) => !existsSync(resolve(e)));
    if (missing !== undefined || entries.length === 0)
      return { ok: false, reason: entries.length > 1 ? `TLA2TOOLS_JAR=${fromEnv}: ${missing} does not exist` : `TLA2TOOLS_JAR=${fromEnv} does not exist` };
    const [jar, ...rest] = entries.map((e) => resolve(e));
    return { ok: true, jar: jar!, ...(rest.length > 0 && { classpath: rest }) };
  }
  const local = join(root, PROJECT_JAR);
  return existsSync(local) ? { ok: true, jar: local } : { ok: false, reason: NO_JAR_REASON };
}

/** `$JAVA_HOME/bin/java`, then `java` on PATH; probed with `-version`. */
export function findJava(env: NodeJS.ProcessEnv = process.env): Found<'java'> {
  const home = env.JAVA_HOME;
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
  return { ok: true, tools: { java: java.java, jar: jar.jar, ...('classpath' in jar && jar.classpath && { classpath: jar.classpath }) } };
}
