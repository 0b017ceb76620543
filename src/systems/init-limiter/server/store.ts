/**
 * The data set a delivery initializes a client from: flags with versions, an immutable snapshot per
 * store version, and a log of the deltas `publish` made, so a feed can resume after any version.
 * In memory; a publish makes a new version and one delta (one flag changed).
 */

export interface Flag {
  readonly key: string;
  readonly version: number;
  readonly value: string;
}

/** The store at one version. Never mutated: deliveries of the same version share it. */
export interface Snapshot {
  readonly version: number;
  readonly flags: readonly Flag[];
}

export interface Delta {
  readonly version: number;
  readonly flag: Flag;
}

export interface DataSetShape {
  /** Flags in the data set (≥ 1). */
  readonly flags: number;
  /** Bytes of each flag's value (≥ 1): flags × valueBytes is about the size of a full basis. */
  readonly valueBytes: number;
}

export interface StoreReader {
  readonly version: number;
  snapshot(): Snapshot;
}

export type DeltaListener = (d: Delta) => void;

function valueOf(key: string, version: number, bytes: number): string {
  // Distinct per key and version, so a basis of one version never equals another's.
  const head = `${key}@${version}:`;
  return head.length >= bytes ? head.slice(0, bytes) : head + 'x'.repeat(bytes - head.length);
}

export class VersionedStore implements StoreReader {
  private current: Snapshot;
  private readonly log: Delta[] = [];
  private readonly listeners = new Set<DeltaListener>();
  /** Reads of a whole snapshot since start (the single flights' effect is visible here). */
  reads = 0;

  constructor(private readonly shape: DataSetShape) {
    const flags: Flag[] = [];
    for (let i = 0; i < shape.flags; i++) {
      const key = `flag-${String(i).padStart(4, '0')}`;
      flags.push(Object.freeze({ key, version: 1, value: valueOf(key, 1, shape.valueBytes) }));
    }
    this.current = Object.freeze({ version: 1, flags: Object.freeze(flags) });
  }

  get version(): number {
    return this.current.version;
  }

  /** Bytes of every value of the current version. */
  get valueBytes(): number {
    return this.current.flags.reduce((n, f) => n + f.value.length, 0);
  }

  snapshot(): Snapshot {
    this.reads += 1;
    return this.current;
  }

  /** A new version with one flag changed (`key`, or the next one round-robin); listeners hear the delta. */
  publish(change: { key?: string; valueBytes?: number } = {}): Delta {
    const version = this.current.version + 1;
    const flags = [...this.current.flags];
    let i = change.key === undefined ? (version - 2) % flags.length : flags.findIndex((f) => f.key === change.key);
    if (i < 0) {
      flags.push({ key: change.key!, version, value: '' });
      i = flags.length - 1;
    }
    const key = flags[i]!.key;
    const flag: Flag = Object.freeze({ key, version, value: valueOf(key, version, change.valueBytes ?? this.shape.valueBytes) });
    flags[i] = flag;
    this.current = Object.freeze({ version, flags: Object.freeze(flags) });
    const delta: Delta = Object.freeze({ version, flag });
    this.log.push(delta);
    for (const l of [...this.listeners]) l(delta);
    return delta;
  }

  /**
   * Hears every delta after `version`: those already published first (synchronously, from the
   * log), then each new one as it is published. Returns the unsubscribe.
   */
  subscribeAfter(version: number, listener: DeltaListener): () => void {
    for (const d of this.log) if (d.version > version) listener(d);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get subscribers(): number {
    return this.listeners.size;
  }
}
