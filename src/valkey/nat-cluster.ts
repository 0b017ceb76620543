import { Cluster, type ClusterOptions } from 'ioredis';

type NatTable = Readonly<Record<string, { readonly host: string; readonly port: number }>>;

/**
 * A MOVED/ASK redirect with its target address translated through the NAT table (unchanged when it
 * is no redirect or the address is not in the table).
 */
export function natMappedRedirect(error: Error, nat: NatTable): Error {
  const m = /^(MOVED|ASK) (\d+) (\S+)$/.exec(error.message);
  const to = m ? nat[m[3]!] : undefined;
  if (!m || !to) return error;
  return Object.assign(new Error(`${m[1]} ${m[2]} ${to.host}:${to.port}`), { name: error.name });
}

/**
 * ioredis records a MOVED target in its slot table as the server wrote it, without natMap, while
 * its connection pool is keyed by the mapped address (redis/ioredis#1582). Every retry then misses
 * the pool and goes to a random node until a background slot refresh lands; when the lost reply
 * has just closed a node's connection, a call can exhaust its 16 redirections first ("Too many
 * Cluster redirections") — more often the more loaded the machine. Translating the redirect first
 * keeps the slot table in the proxies' address space, so a MOVED is followed in one hop, exactly
 * as it is without a NAT.
 */
export class NatMappedCluster extends Cluster {
  constructor(seeds: readonly { host: string; port: number }[], options: ClusterOptions) {
    // clusterClientOptions() leaves redisOptions.replyMapping unset: the legacy mapping.
    super([...seeds], options as ConstructorParameters<typeof Cluster<'legacy'>>[1]);
  }

  override handleError(...[error, ttl, handlers]: Parameters<Cluster['handleError']>): void {
    const nat = this.options.natMap;
    super.handleError(nat && typeof nat === 'object' ? natMappedRedirect(error, nat) : error, ttl, handlers);
  }
}
