import type { Command } from '../../core/command.js';
import { parseCommandArgs, UsageError } from '../../core/args.js';
import { type ExitCode, statusExitCode } from '../../core/exit-codes.js';
import { stageReport, type StageStatus } from '../../core/stage-report.js';
import { hashTag, keySlot } from '../../valkey/slots.js';
import { closeClient, createClient, startTopology, ValkeyUnavailableError, type Topology } from '../../valkey/index.js';
import { parseEndpoint, type Endpoint } from '../../valkey/external.js';
import { endpointName } from '../../valkey/client.js';
import { maskSecrets } from '../../core/secrets.js';
import { isProviderChoice } from '../../valkey/start.js';

const HELP = `Usage: fencecheck slot KEY... [--check] [--pairs] [--node HOST:PORT] [--provider P] [--json]

Prints the cluster slot of each key (CRC16 mod 16384, hash tags honoured) and its hash tag.

Options:
  --check           also ask a live cluster-enabled node (CLUSTER KEYSLOT) and require agreement.
                    The node is --node, else a one-shard cluster started for the purpose
                    (--provider auto|native|testcontainers|external, default auto)
  --node HOST:PORT  the node --check asks (any cluster-enabled node; nothing is written)
  --pairs           report whether all the keys share one slot (a multi-key script needs that)
  --json            print a fencecheck.stage/1 report

Exit codes: 0 ok (and, with --pairs, one shared slot) · 1 the server disagrees, or --pairs and the
keys span several slots · 2 --check could not reach or start a node · 64 usage`;

interface KeyRow {
  readonly key: string;
  readonly slot: number;
  readonly tag: string | null;
  readonly server?: number;
}

export const command: Command = {
  name: 'slot',
  summary: 'slot of each key; --check against a live node, --pairs for a shared slot',
  help: HELP,
  async run(argv) {
    const startedAt = new Date();
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        check: { type: 'boolean', default: false },
        pairs: { type: 'boolean', default: false },
        node: { type: 'string' },
        provider: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      true,
    );
    if (positionals.length === 0) throw new UsageError('give at least one KEY');
    if (values.provider !== undefined && !isProviderChoice(values.provider)) throw new UsageError(`unknown provider '${values.provider}'`);
    let node: Endpoint | undefined;
    if (values.node !== undefined) {
      try {
        node = parseEndpoint(values.node);
      } catch (err) {
        throw new UsageError(maskSecrets((err as Error).message));
      }
    }
    let rows: KeyRow[] = positionals.map((key) => ({ key, slot: keySlot(key), tag: hashTag(key) }));

    const finish = (status: StageStatus, summary: string, reason?: string): ExitCode => {
      const slots = new Set(rows.map((r) => r.slot));
      if (values.json) {
        const report = stageReport({
          stage: 'slot',
          status,
          ...(reason !== undefined ? { reason } : {}),
          startedAt: startedAt.toISOString(),
          durationMs: Date.now() - startedAt.getTime(),
          summary,
          counts: { keys: rows.length, slots: slots.size },
          details: { keys: rows, sameSlot: slots.size === 1, checked: values.check },
        });
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        const width = Math.max(...rows.map((r) => r.key.length), 3);
        for (const r of rows) {
          const server = r.server === undefined ? '' : `  server ${r.server}${r.server === r.slot ? '' : '  MISMATCH'}`;
          process.stdout.write(`${String(r.slot).padStart(5)}  ${r.key.padEnd(width)}  ${r.tag === null ? '(no tag)' : `{${r.tag}}`}${server}\n`);
        }
        if (values.pairs) process.stdout.write(slots.size === 1 ? `same slot: yes (${rows[0]!.slot})\n` : `same slot: no (${slots.size} slots)\n`);
        if (reason !== undefined) process.stderr.write(`fencecheck slot: ${status === 'not-run' ? 'not run' : status}: ${reason}\n`);
      }
      return statusExitCode(status);
    };

    if (values.check) {
      let topo: Topology | undefined;
      try {
        if (!node) {
          const provider = values.provider !== undefined && isProviderChoice(values.provider) ? values.provider : undefined;
          topo = await startTopology({ kind: 'cluster', shards: 1 }, provider ? { provider } : {});
          node = topo.nodes[0]!;
        }
        // Every command times out (FENCECHECK_COMMAND_TIMEOUT_MS): a silent node is "not run", never a hang.
        const client = createClient({ kind: 'standalone', ...node });
        try {
          const answers = await Promise.all(rows.map((r) => client.call('CLUSTER', 'KEYSLOT', r.key)));
          rows = rows.map((r, i) => ({ ...r, server: Number(answers[i]) }));
        } finally {
          await closeClient(client);
        }
      } catch (err) {
        const why = maskSecrets(err instanceof ValkeyUnavailableError ? err.message : `cannot ask ${node ? endpointName(node) : 'a node'}: ${(err as Error).message}`);
        return finish('not-run', 'slots computed; the server check could not run', why);
      } finally {
        await topo?.stop();
      }
      const bad = rows.filter((r) => r.server !== r.slot);
      if (bad.length > 0) return finish('failed', `${bad.length} of ${rows.length} key(s) disagree with CLUSTER KEYSLOT`, `mismatch: ${bad.map((r) => r.key).join(', ')}`);
    }
    const distinct = new Set(rows.map((r) => r.slot)).size;
    if (values.pairs && distinct > 1) return finish('failed', `${rows.length} keys span ${distinct} slots`);
    const checked = values.check ? ', all agree with CLUSTER KEYSLOT' : '';
    return finish('passed', `${rows.length} key(s) in ${distinct} slot(s)${checked}`);
  },
};
