/**
 * The steps of one live slot migration, as valkey-cli does them: SETSLOT IMPORTING on the target,
 * MIGRATING on the source, MIGRATE the slot's keys (in as many batches as the caller wants: clients
 * meanwhile meet ASK and TRYAGAIN), then SETSLOT NODE on the target, the source and every other
 * primary (from then on the source answers MOVED). Used by the mode door and by the cluster matrix's rows.
 */
import type { Redis } from 'ioredis';

/** A primary with an open admin connection and its cluster node id. */
export interface MigrationNode {
  readonly host: string;
  readonly port: number;
  /**
   * The port MIGRATE names to reach this node as a target: its TLS port when the cluster's bus is TLS
   * (tls-cluster yes: the source then opens MIGRATE connections with TLS). Default `port`.
   */
  readonly migratePort?: number;
  readonly id: string;
  readonly admin: Redis;
}

export interface SlotMigration {
  readonly slot: number;
  /** MIGRATE these keys (all in `slot`) to the importing node. */
  move(keys: readonly string[]): Promise<void>;
  /** Up to `count` keys still on the source. */
  remaining(count: number): Promise<string[]>;
  /** SETSLOT NODE on the target, the source, then every other primary. */
  finish(): Promise<void>;
}

export async function beginSlotMigration(slot: number, from: MigrationNode, to: MigrationNode, others: readonly MigrationNode[]): Promise<SlotMigration> {
  await to.admin.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', from.id);
  await from.admin.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', to.id);
  return {
    slot,
    async move(keys) {
      if (keys.length > 0) await from.admin.call('MIGRATE', to.host, to.migratePort ?? to.port, '', 0, 5000, 'KEYS', ...keys);
    },
    async remaining(count) {
      return (await from.admin.call('CLUSTER', 'GETKEYSINSLOT', slot, count)) as string[];
    },
    async finish() {
      await to.admin.call('CLUSTER', 'SETSLOT', slot, 'NODE', to.id);
      await from.admin.call('CLUSTER', 'SETSLOT', slot, 'NODE', to.id);
      for (const o of others) await o.admin.call('CLUSTER', 'SETSLOT', slot, 'NODE', to.id);
    },
  };
}
