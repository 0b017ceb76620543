/**
 * Reading a fact source over HTTP (a pod's /metrics, Prometheus' API, the Kubernetes API) or from a
 * command or a file, with the two ways it can fail told apart: it could not be read (exit 2: never
 * a decision) or it was read and is not what it must be (exit 3, the source named).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** The source could not be read: refused connection, timeout, an HTTP error status, a command that failed. */
export class SourceUnreachableError extends Error {
  override readonly name = 'SourceUnreachableError';
  constructor(
    readonly source: string,
    problem: string,
  ) {
    super(`cannot read ${source}: ${problem}`);
  }
}

/** The source answered, but not in the shape it must have (exposition text, JSON). */
export class SourceMalformedError extends Error {
  override readonly name = 'SourceMalformedError';
  constructor(
    readonly source: string,
    problem: string,
  ) {
    super(`${source}: ${problem}`);
  }
}

const message = (err: unknown) => (err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err));

/** GET `url`'s body as text within `timeoutMs`; SourceUnreachableError on any transport failure or non-2xx status. */
export async function httpText(url: string, timeoutMs: number): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new SourceUnreachableError(url, (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : message(err));
  }
  let body: string;
  try {
    body = await res.text();
  } catch (err) {
    throw new SourceUnreachableError(url, `the answer broke off: ${message(err)}`);
  }
  if (!res.ok) throw new SourceUnreachableError(url, `HTTP ${res.status}${body ? `: ${body.trim().slice(0, 120)}` : ''}`);
  return body;
}

/** A file's text; SourceUnreachableError when it cannot be read. */
export async function fileText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new SourceUnreachableError(path, message(err));
  }
}

/** A command's stdout (run by /bin/sh, as a CI job would write it); SourceUnreachableError when it fails. */
export function commandText(command: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) {
        const why = err.killed ? `no answer within ${timeoutMs} ms` : `exit ${err.code ?? err.signal}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`;
        reject(new SourceUnreachableError(`command '${command}'`, why));
      } else resolve(stdout);
    });
  });
}

/** JSON.parse, or SourceMalformedError naming the source. */
export function parseJson(source: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SourceMalformedError(source, `not JSON (${(err as Error).message})`);
  }
}
