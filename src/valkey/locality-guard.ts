import { ReplyError, type Cluster } from 'ioredis';
import { committedSnapshot } from '../luacheck/keyspecs.js';
import { keyPositions, lookupCommand, type ArgvView } from '../luacheck/key-positions.js';
import { keySlotOfBytes } from './slots.js';

/**
 * The runtime side of the locality rule, for the harness's own Cluster clients: every command
 * (multi-key commands, EVAL/EVALSHA/FCALL with their KEYS) must keep its keys in one slot, and so
 * must every command of a pipeline; a MULTI/EXEC transaction as a whole. A breach is refused before
 * anything is sent, with an error naming each key and its slot. Key positions come from the same
 * key-spec snapshot as `fencecheck lua-check`.
 *
 * The error is a ReplyError whose text begins with `CROSSSLOT`, as the server's own refusal does,
 * so code that handles a CROSSSLOT reply (T3 findings, the limiter's error codes) sees the same
 * thing — only earlier, also for pipelines, and with the keys named.
 *
 * Opt-in: FENCECHECK_LOCALITY_GUARD=1 (the test suite sets it); createClient installs it on Cluster
 * clients only, and costs nothing when it is off.
 */
export const ENV_LOCALITY_GUARD = 'FENCECHECK_LOCALITY_GUARD';

export function localityGuardEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[ENV_LOCALITY_GUARD] === '1';
}

export interface KeySlot {
  readonly key: string;
  readonly slot: number;
}

const ReplyErrorBase = ReplyError as unknown as new (message: string) => Error;

export class LocalityGuardError extends ReplyErrorBase {
  override readonly name = 'LocalityGuardError';
  constructor(
    /** `EVALSHA`, `pipeline command GET`, `transaction`. */
    readonly what: string,
    readonly keys: readonly KeySlot[],
  ) {
    const slots = new Set(keys.map((k) => k.slot));
    super(`CROSSSLOT (fencecheck locality guard) ${what}: keys in ${slots.size} slots: ${keys.map((k) => `${k.key} (slot ${k.slot})`).join(', ')}`);
  }
}

type Arg = string | Buffer | number | unknown;
interface CommandLike {
  name: string;
  args: Arg[];
  reject(err: Error): void;
  promise: Promise<unknown>;
}

const text = (a: Arg): string | undefined => (typeof a === 'string' ? a : Buffer.isBuffer(a) ? a.toString('utf8') : typeof a === 'number' ? String(a) : undefined);
const bytes = (a: Arg): Buffer => (Buffer.isBuffer(a) ? a : Buffer.from(text(a) ?? '', 'utf8'));

/** The keys of one command and their slots, by the key specs (commands they cannot tell are not judged). */
export function commandKeySlots(name: string, args: readonly Arg[]): KeySlot[] {
  const argv: ArgvView = { length: args.length + 1, spread: false, literal: (i) => (i === 0 ? name : text(args[i - 1])) };
  const cmd = lookupCommand(committedSnapshot(), argv);
  if (cmd.kind !== 'command') return [];
  const pos = keyPositions(cmd.name, cmd.spec, argv);
  if (pos.kind !== 'keys') return [];
  return pos.positions.map((p) => {
    const raw = args[p - 1];
    return { key: text(raw) ?? '', slot: keySlotOfBytes(bytes(raw)) };
  });
}

const spans = (keys: readonly KeySlot[]) => keys.length > 1 && keys.some((k) => k.slot !== keys[0]!.slot);

/** Installs the guard on a Cluster client (idempotent). */
export function installLocalityGuard(cluster: Cluster): void {
  const target = cluster as unknown as {
    fencecheckLocalityGuard?: true;
    sendCommand(cmd: CommandLike, ...rest: unknown[]): unknown;
    pipeline(...a: unknown[]): unknown;
    multi(...a: unknown[]): unknown;
  };
  if (target.fencecheckLocalityGuard) return;
  target.fencecheckLocalityGuard = true;

  const send = target.sendCommand.bind(target);
  target.sendCommand = (cmd: CommandLike, ...rest: unknown[]) => {
    // A command with one argument has at most one key: nothing to judge (most of the hot path).
    const keys = cmd.args.length > 1 ? commandKeySlots(cmd.name, cmd.args) : [];
    if (spans(keys)) {
      cmd.reject(new LocalityGuardError(cmd.name.toUpperCase(), keys));
      return cmd.promise;
    }
    return send(cmd, ...rest);
  };
  const pipeline = target.pipeline.bind(target);
  target.pipeline = (...a: unknown[]) => guardPipeline(pipeline(...a), false);
  const multi = target.multi.bind(target);
  target.multi = (...a: unknown[]) => guardPipeline(multi(...a), true);
}

/** Checks a pipeline's queued commands when it is executed: each in one slot; a transaction all in one. */
function guardPipeline(p: unknown, transaction: boolean): unknown {
  const pipe = p as { sendCommand?(cmd: CommandLike): unknown; exec?(...a: unknown[]): Promise<unknown> };
  if (typeof pipe?.sendCommand !== 'function' || typeof pipe.exec !== 'function') return p; // multi({ pipeline: false }) returns a promise
  const queued: CommandLike[] = [];
  const enqueue = pipe.sendCommand.bind(pipe);
  pipe.sendCommand = (cmd: CommandLike) => {
    queued.push(cmd);
    return enqueue(cmd);
  };
  const exec = pipe.exec.bind(pipe);
  pipe.exec = (...a: unknown[]) => {
    const all: KeySlot[] = [];
    for (const cmd of queued) {
      const keys = commandKeySlots(cmd.name, cmd.args);
      if (spans(keys)) return Promise.reject(new LocalityGuardError(`pipeline command ${cmd.name.toUpperCase()}`, keys));
      all.push(...keys);
    }
    if (transaction && spans(all)) return Promise.reject(new LocalityGuardError('transaction (MULTI/EXEC)', all));
    return exec(...a);
  };
  return p;
}
