/**
 * An instant query of a Prometheus server's HTTP API (`/api/v1/query`): the vector it answers, each
 * sample with its labels, value and the time Prometheus evaluated it. Anything but a well-formed
 * `success` vector is SourceMalformedError (exit 3); a server that cannot be reached, SourceUnreachableError.
 */
import { httpText, parseJson, SourceMalformedError } from './sources.js';

export interface VectorSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  /** Seconds since the epoch (Prometheus' own unit), fractional. */
  readonly at: number;
}

export async function instantQuery(baseUrl: string, query: string, timeoutMs: number): Promise<VectorSample[]> {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/v1/query?query=${encodeURIComponent(query)}`;
  const source = `Prometheus ${baseUrl} (query ${query})`;
  const body = parseJson(source, await httpText(url, timeoutMs)) as { status?: unknown; data?: { resultType?: unknown; result?: unknown } };
  if (body?.status !== 'success') throw new SourceMalformedError(source, `status is ${JSON.stringify(body?.status)}, not "success"`);
  if (body.data?.resultType !== 'vector' || !Array.isArray(body.data.result)) throw new SourceMalformedError(source, 'the answer is not a vector');
  return body.data.result.map((r: unknown, i: number) => {
    const s = r as { metric?: unknown; value?: unknown };
    const v = s?.value;
    const labels = s?.metric;
    if (typeof labels !== 'object' || labels === null || !Object.values(labels).every((x) => typeof x === 'string')) throw new SourceMalformedError(source, `result ${i}: 'metric' is not a label set`);
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'number' || typeof v[1] !== 'string' || Number.isNaN(Number(v[1])))
      throw new SourceMalformedError(source, `result ${i}: 'value' is not [time, "number"]`);
    return { labels: labels as Record<string, string>, value: Number(v[1]), at: v[0] };
  });
}
