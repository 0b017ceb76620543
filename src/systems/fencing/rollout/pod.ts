/**
 * One pod of the migration rehearsal, as its own process: runs one phase's scripts against real
 * Valkey as the relay would — two renewers (the reliable and the huddle lane), each acquiring a
 * session of the shared pool, renewing it on the scaled cadence, looking it up and validating it,
 * releasing it now and then — and serves `buzz_fencing_phase{pod,phase} 1` on /metrics.
 * Every generation it is issued goes to stdout as one JSON line, for the controller's T2 check.
 * SIGTERM (a RollingUpdate's stop) releases what it holds and exits; SIGKILL is the chaos.
 * Run: node --import tsx pod.ts --valkey HOST:PORT --phase P --name NAME --sessions N --ttl MS --renew MS --seed S --port PORT
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { evalScript } from '../../../valkey/scripts/index.js';
import { loadFencingScripts } from '../scripts.js';
import { KEYS_OF } from '../scripts.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import { PHASES, type Phase } from '../state.js';
import { mulberry32 } from '../../../core/random.js';

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

const conn = new Redis({ host, port: Number(port), maxRetriesPerRequest: 1, lazyConnect: false });
conn.on('error', () => {});
const scripts = loadFencingScripts();
const session = (i: number): SessionRef => ({ community: 'rehearsal', session: `s${i}` });
const call = (op: keyof (typeof KEYS_OF)['O'], s: SessionRef, args: (string | number)[]) => {
  const k = sessionKeys(s);
  return evalScript(
    conn,
    scripts.get(`${phase}/${op}`),
    KEYS_OF[phase][op].map((r) => k[r]),
    args,
  );
};
const emit = (ev: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...ev, pod: name, phase })}\n`);

interface Held {
  readonly s: SessionRef;
  readonly gen: number;
}
const LANES = ['reliable', 'huddle'] as const;
const held: Record<(typeof LANES)[number], Held | undefined> = { reliable: undefined, huddle: undefined };
let stopping = false;

async function tick(lane: (typeof LANES)[number]): Promise<void> {
  const owner = `${name}/${lane}`;
  const h = held[lane];
  if (!h) {
    const s = session(Math.floor(rand() * pool));
    const r = (await call('acquire', s, [owner, ttl, MAX_GEN])) as [string, number];
    if (r[0] === 'ok') {
      held[lane] = { s, gen: Number(r[1]) };
      emit({ ev: 'issued', lane, session: `${s.community}:${s.session}`, gen: Number(r[1]) });
    }
    return;
  }
  if (rand() < 0.1) {
    await call('release', h.s, [owner, h.gen]);
    held[lane] = undefined;
    return;
  }
  const r = (await call('renew', h.s, [owner, h.gen, ttl])) as [string, ...unknown[]];
  if (r[0] !== 'ok' && r[0] !== 'migrated') {
    emit({ ev: 'lost', lane, session: `${h.s.community}:${h.s.session}`, gen: h.gen, reply: r[0] });
    held[lane] = undefined;
    return;
  }
  if (rand() < 0.3) {
    await call('lookup', h.s, []);
    await call('validate_fenced_header', h.s, [owner, h.gen]);
  }
}

const server = createServer((req, res) => {
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
server.listen(Number(values.port), '127.0.0.1', () => emit({ ev: 'ready' }));

const loops = LANES.map(async (lane) => {
  while (!stopping) {
    try {
      await tick(lane);
    } catch (err) {
      emit({ ev: 'error', lane, message: (err as Error).message.slice(0, 200) });
    }
    await new Promise((r) => setTimeout(r, renewMs * (0.5 + rand())));
  }
});

process.once('SIGTERM', () => {
  stopping = true;
  void (async () => {
    await Promise.all(loops);
    for (const lane of LANES) {
      const h = held[lane];
      if (h) await call('release', h.s, [`${name}/${lane}`, h.gen]).catch(() => {});
    }
    server.close();
    conn.disconnect();
    process.exit(0);
  })();
});
