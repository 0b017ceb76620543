/**
 * Reads the fleet from the sources a deploy pipeline names: the phases (pods' /metrics or
 * Prometheus) and the ReplicaSets (a file, the Kubernetes API URL, or a command such as
 * `kubectl get rs -l app=relay -o json`). SourceUnreachableError / SourceMalformedError pass through.
 */
import { commandText, fileText, httpText, parseJson } from '../../../fleet/sources.js';
import { parseReplicaSets, queryPrometheus, scrapePods, type FleetObservation } from './fleet.js';

export interface FleetSources {
  readonly phases: { readonly kind: 'metrics'; readonly urls: readonly string[] } | { readonly kind: 'prometheus'; readonly url: string };
  readonly replicaSets: { readonly kind: 'file'; readonly path: string } | { readonly kind: 'url'; readonly url: string } | { readonly kind: 'command'; readonly command: string };
  readonly maxAgeMs: number;
}

/** How long one source may take to answer. */
export const SOURCE_TIMEOUT_MS = 5000;

export async function readFleet(src: FleetSources): Promise<FleetObservation> {
  const rs = src.replicaSets;
  const [name, text] =
    rs.kind === 'file'
      ? [rs.path, await fileText(rs.path)]
      : rs.kind === 'url'
        ? [rs.url, await httpText(rs.url, SOURCE_TIMEOUT_MS)]
        : [`command '${rs.command}'`, await commandText(rs.command, SOURCE_TIMEOUT_MS)];
  const replicaSets = parseReplicaSets(name, parseJson(name, text));
  const opts = { maxAgeMs: src.maxAgeMs, timeoutMs: SOURCE_TIMEOUT_MS };
  const phases = src.phases.kind === 'metrics' ? await scrapePods(src.phases.urls, opts) : await queryPrometheus(src.phases.url, opts);
  return { ...phases, replicaSets };
}
