/**
 * One pod of the migration rehearsal, as its own process: runs one phase's scripts against real
 * Valkey as the relay would — two renewers (the reliable and the huddle lane), each acquiring a
 * session of the shared pool, renewing it on the scaled cadence, looking it up and validating it,
 * releasing it now and then — and serves `buzz_fencing_phase{pod,phase} 1` on /metrics.
 * Every lease it is issued, renews, releases, loses or hands over goes to stdout as one JSON line
 * (pod-process.ts `PodLine`), for the controller's T2 check and the rehearsal's observer.
 * SIGTERM (a RollingUpdate's stop) hands what it holds over and exits; SIGKILL is the chaos, and so
 * are POST /stop-renewing (a hung renewer) and POST /metrics-fault `500|hang MS` (a failed scrape).
 * Run: node --import tsx pod.ts --valkey HOST:PORT --phase P --name NAME --sessions N --ttl MS --renew MS --seed S --port PORT
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { evalScript } from '../../../valkey/scripts/index.js';
import { loadFencingScripts } from '../scripts.js';
import { KEYS_OF } from '../scripts.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import { PHASES, type Phase } from '../state.js';
import { mulberry32 } from '../../../core/random.js';
import { callObserved } from './observed-call.js';
import { loadPatchModule } from '../../../seam/patch-file.js';
import { IMPL_PATCH_TYPE, isImplPatch } from '../patch.js';

const { values } = parseArgs({
  options: {
    valkey: { type: 'string' },
    phase: { type: 'string' },
    name: { type: 'string' },
    sessions: { type: 'string' },
    ttl: { type: 'string' },
    renew: { type: 'string' },
    seed: { type: 'string' },
    port: { type: 'string' },
    silent: { type: 'boolean', default: false },
    /** Leases handed over by a stopped pod: `owner|community:session|generation`, ';'-separated. */
    adopt: { type: 'string', default: '' },
    /** An impl patch file (src/systems/fencing/patch.ts): this pod runs its Lua instead of the real scripts. */
    patch: { type: 'string' },
    /** --valkey is a node of a cluster (after the mode door): a cluster client, each step read in its session's slot only. */
    cluster: { type: 'boolean', default: false },
  },
});
const phase = values.phase as Phase;
if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`--phase ${values.phase}`);
const name = values.name!;
const [host, port] = values.valkey!.split(':');
const ttl = Number(values.ttl);
const renewMs = Number(values.renew);
const pool = Number(values.sessions);
const rand = mulberry32(Number(values.seed));
const MAX_GEN = 1_000_000_000;

const onCluster = values.cluster!;
const conn = onCluster
  ? new Cluster([{ host: host!, port: Number(port) }], { redisOptions: { maxRetriesPerRequest: 1 } })
  : new Redis({ host, port: Number(port), maxRetriesPerRequest: 1, lazyConnect: false });
conn.on('error', () => {});
const scripts = loadFencingScripts(values.patch ? await loadPatchModule(values.patch, isImplPatch, IMPL_PATCH_TYPE) : undefined);
const session = (i: number): SessionRef => ({ community: 'rehearsal', session: `s${i}` });
/**
 * T3 on the wire after the door (as the property driver checks it): a script that names an old key,
 * or one the cluster refused with CROSSSLOT, is printed as a `t3` line for the controller.
 */
const onTheWire = async <T>(op: string, s: SessionRef, keys: readonly string[], run: () => Promise<T>): Promise<T> => {
  const k = sessionKeys(s);
  const old = keys.filter((key) => key === k.oldLease || key === k.oldGen);
  if (onCluster && old.length > 0) emit({ ev: 't3', what: `${phase}/${op} names old key(s) ${old.join(', ')} after the door` });
  try {
    return await run();
  } catch (err) {
    if (onCluster && /CROSSSLOT/.test((err as Error).message)) emit({ ev: 't3', what: `${phase}/${op} rejected with CROSSSLOT: ${(err as Error).message}` });
    throw err;
  }
};
const call = (op: keyof (typeof KEYS_OF)['O'], s: SessionRef, args: (string | number)[]) => {
  const k = sessionKeys(s);
  const keys = KEYS_OF[phase][op].map((r) => k[r]);
  return onTheWire(op, s, keys, () => evalScript(conn, scripts.get(`${phase}/${op}`), keys, args));
};
const emit = (ev: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...ev, pod: name, phase })}\n`);
/** A call that changes the session: run with the session read back in its transaction, reported as a `step` line (trace.ts). */
const step = async (op: 'acquire' | 'renew' | 'release', s: SessionRef, owner: string, args: (string | number)[]) => {
  const k = sessionKeys(s);
  const keys = KEYS_OF[phase][op].map((role) => k[role]);
  const r = await onTheWire(op, s, keys, () => callObserved(conn, s, { script: scripts.get(`${phase}/${op}`), keys, args }, onCluster));
  if (r.error !== undefined && onCluster && /CROSSSLOT/.test(r.error)) emit({ ev: 't3', what: `${phase}/${op} rejected with CROSSSLOT: ${r.error}` });
  emit({ ev: 'step', op, owner, session: `${s.community}:${s.session}`, reply: r.reply, ...(r.error !== undefined && { error: r.error }), seen: r.seen });
  if (r.error !== undefined) throw new Error(r.error);
  return r.reply;
};

interface Held {
  readonly s: SessionRef;
  readonly gen: number;
  /** The session's owner: this pod's lane, or the one it took over from a stopped pod. */
  readonly owner: string;
}
const LANES = ['reliable', 'huddle'] as const;
/** Each lane's sessions: the one it acquired, and any a stopped pod handed over to it. */
const held: Record<(typeof LANES)[number], Held[]> = { reliable: [], huddle: [] };
let stopping = false;
let wake: () => void = () => {};
const stopped = new Promise<void>((r) => (wake = r));

async function renewOne(lane: (typeof LANES)[number], h: Held): Promise<boolean> {
  const lease = { lane, owner: h.owner, session: `${h.s.community}:${h.s.session}`, gen: h.gen };
  if (rand() < 0.1) {
    await step('release', h.s, h.owner, [h.owner, h.gen]);
    emit({ ev: 'released', ...lease });
    return false;
  }
  const r = (await step('renew', h.s, h.owner, [h.owner, h.gen, ttl])) as [string, ...unknown[]];
  if (r[0] === 'migrated') {
    // The migrate carries the generation, never issues one (T2 across the renew-migrate).
    if (Number(r[1]) !== h.gen) emit({ ev: 'error', lane, message: `migrated ${h.s.session} with generation ${String(r[1])}, held ${h.gen}` });
    emit({ ev: 'renewed', ...lease, migrated: true });
  } else if (r[0] === 'ok') {
    emit({ ev: 'renewed', ...lease, migrated: false });
  } else {
    emit({ ev: 'lost', ...lease, reply: r[0] });
    return false;
  }
  if (rand() < 0.3) {
    await call('lookup', h.s, []);
    await call('validate_fenced_header', h.s, [h.owner, h.gen]);
  }
  return true;
}

/** Chaos: the pod stops renewing (a hung renewer): its leases expire and other pods take the sessions over. */
let renewing = true;
/** Chaos: until this time /metrics fails, with a 500 or by hanging (Prometheus's scrape times out). */
let metricsFault: { readonly mode: '500' | 'hang'; readonly until: number } | null = null;

async function tick(lane: (typeof LANES)[number]): Promise<void> {
  if (!renewing) return;
  const mine = held[lane];
  if (mine.length === 0) {
    const owner = `${name}/${lane}`;
    const s = session(Math.floor(rand() * pool));
    const r = (await step('acquire', s, owner, [owner, ttl, MAX_GEN])) as [string, number];
    if (r[0] === 'ok') {
      mine.push({ s, gen: Number(r[1]), owner });
      emit({ ev: 'issued', lane, owner, session: `${s.community}:${s.session}`, gen: Number(r[1]) });
    }
    return;
  }
  for (const h of [...mine]) if (!(await renewOne(lane, h))) mine.splice(mine.indexOf(h), 1);
}

/** Takes over handed-over leases (`owner|community:session|generation` lines), each in its lane. */
function adopt(text: string): void {
  for (const part of text.split(/[;\n]/).filter(Boolean)) {
    const [owner, ref, gen] = part.split('|');
    const lane = LANES.find((l) => owner!.endsWith(`/${l}`));
    const i = ref!.lastIndexOf(':');
    if (lane && !stopping) held[lane].push({ s: { community: ref!.slice(0, i), session: ref!.slice(i + 1) }, gen: Number(gen), owner: owner! });
  }
}

const server = createServer((req, res) => {
  if (req.url === '/adopt' && req.method === 'POST') {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      adopt(body);
      res.writeHead(204).end();
    });
    return;
  }
  if (req.url === '/stop-renewing' && req.method === 'POST') {
    renewing = false;
    res.writeHead(204).end();
    return;
  }
  if (req.url === '/metrics-fault' && req.method === 'POST') {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const [mode, ms] = body.split(' ');
      metricsFault = { mode: mode === 'hang' ? 'hang' : '500', until: Date.now() + Number(ms) };
      res.writeHead(204).end();
    });
    return;
  }
  if (req.url === '/metrics' && metricsFault && Date.now() < metricsFault.until) {
    if (metricsFault.mode === '500') res.writeHead(500).end('injected failure\n');
    else setTimeout(() => res.destroy(), metricsFault.until - Date.now()).unref();
    return;
  }
  if (req.url !== '/metrics') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
  res.end(
    values.silent
      ? '# TYPE process_up gauge\nprocess_up 1\n'
      : `# HELP buzz_fencing_phase The fencing script phase this pod runs.\n# TYPE buzz_fencing_phase gauge\nbuzz_fencing_phase{pod="${name}",phase="${phase}"} 1\n`,
  );
});
adopt(values.adopt!);
// This image starts here: a `start` step on every session, before any call of this pod (trace.ts: its owners' version).
const begun = Promise.all(
  Array.from({ length: pool }, async (_, i) => {
    const s = session(i);
    emit({ ev: 'step', op: 'start', owner: `${name}/*`, session: `${s.community}:${s.session}`, reply: null, seen: (await callObserved(conn, s, null, onCluster)).seen });
  }),
);
void begun.then(() => server.listen(Number(values.port), '127.0.0.1', () => emit({ ev: 'ready' })));

const loops = LANES.map(async (lane) => {
  await begun;
  while (!stopping) {
    try {
      await tick(lane);
    } catch (err) {
      emit({ ev: 'error', lane, message: (err as Error).message.slice(0, 200) });
    }
    await Promise.race([stopped, new Promise((r) => setTimeout(r, renewMs * (0.5 + rand())))]);
  }
});

// SIGTERM: a RollingUpdate stops this pod. Its sessions move to another pod with their owner and
// generation (printed as handoffs for the controller to give to the next pod), not released.
process.once('SIGTERM', () => {
  stopping = true;
  wake();
  void (async () => {
    await Promise.all(loops);
    for (const lane of LANES) for (const h of held[lane]) emit({ ev: 'handoff', lane, owner: h.owner, session: `${h.s.community}:${h.s.session}`, gen: h.gen });
    server.close();
    conn.disconnect();
    process.exit(0);
  })();
});
