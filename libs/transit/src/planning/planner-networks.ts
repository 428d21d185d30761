import type { DatasetVersion } from '../../../platform/src/index.js';
import type { TransitNetwork } from '../domain/network.js';
import { versionKey } from './planner-messages.js';

/**
 * A planner thread's own compiled networks (docs/adr/0019, "Planning off the
 * event loop"): those of the live versions, compiled as soon as the main
 * thread names them, and dropped when they are no longer live. A request for
 * a version that is not (or no longer) live — one that waited in the queue
 * across a swap — has it compiled for itself and not kept. A failed
 * compilation is not kept either: the next request tries again.
 */
export class PlannerNetworks {
  private readonly kept = new Map<string, Promise<TransitNetwork>>();
  /** null until the main thread first says which versions are live: until then whatever is compiled is kept. */
  private live: Set<string> | null = null;

  constructor(private readonly compile: (source: DatasetVersion) => Promise<TransitNetwork>) {}

  keep(sources: readonly DatasetVersion[]): void {
    this.live = new Set(sources.map(versionKey));
    for (const key of [...this.kept.keys()]) if (!this.live.has(key)) this.kept.delete(key);
    for (const source of sources) if (!this.kept.has(versionKey(source))) this.compiled(source, true).catch(() => undefined);
  }

  network(source: DatasetVersion): Promise<TransitNetwork> {
    return this.kept.get(versionKey(source)) ?? this.compiled(source, this.live === null || this.live.has(versionKey(source)));
  }

  /** The versions held (compiled or compiling). */
  get versions(): string[] {
    return [...this.kept.keys()];
  }

  private compiled(source: DatasetVersion, keep: boolean): Promise<TransitNetwork> {
    const key = versionKey(source);
    const network = this.compile(source);
    if (keep) {
      this.kept.set(key, network);
      network.catch(() => {
        if (this.kept.get(key) === network) this.kept.delete(key);
      });
    }
    return network;
  }
}
