import type { EventStore } from '../event-store/event-store.port.js';
import type { EventRegistry } from '../events/event-registry.js';
import type { Followers } from '../followers/followers.js';
import { LogFollower, type FollowerOptions } from '../followers/log-follower.js';
import type { JsonLogger } from '../logging/json-logger.js';
import type { ReadCollection, ReadStore } from '../read-store/read-store.port.js';
import { checkpointName, collectionName, type Projection } from './projection.js';

/**
 * Every projection as a LogFollower from its own checkpoint, which is kept
 * with the read model. `waitFor` lets a command that must read its own write
 * wait until the read model has applied the position it appended.
 */
export class ProjectionRunner {
  private readonly running = new Map<string, LogFollower>();

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly registry: EventRegistry,
    private readonly projections: readonly Projection[],
    private readonly logger: JsonLogger,
    private readonly options: FollowerOptions = {},
    /** Where the process keeps its followers for the health signal. */
    private readonly registryOfFollowers?: Followers,
  ) {
    const names = new Set<string>();
    for (const projection of projections) {
      registry.assertKnown(projection.handles, `projection ${projection.name}`);
      if (names.has(projection.name)) throw new Error(`projection ${projection.name} declared twice`);
      names.add(projection.name);
    }
  }

  async start(): Promise<void> {
    for (const projection of this.projections) {
      const collection = (await this.readStore.collection(collectionName(projection), projection.indexes)) as ReadCollection<never>;
      const follower = new LogFollower(
        this.events,
        this.registry,
        this.readStore,
        {
          name: `projection ${projection.name}`,
          streamPrefixes: projection.streamPrefixes,
          handles: projection.handles,
          start: { from: 'checkpoint', key: checkpointName(projection) },
          sink: { handle: (event) => projection.apply(event, collection) },
          pipelined: projection.pipelined === true && this.readStore.writesInCallOrder === true,
        },
        this.logger,
        this.options,
      );
      this.running.set(projection.name, follower);
      this.registryOfFollowers?.add(follower, projection.name);
      await follower.start();
    }
  }

  /** The followers, for the health signal. */
  followers(): LogFollower[] {
    return [...this.running.values()];
  }

  /** Position each projection has applied, for progress output and tests. */
  positions(): Record<string, bigint> {
    return Object.fromEntries([...this.running].map(([name, follower]) => [name, follower.position]));
  }

  /** Resolves once `projection` has applied `position`; TimeoutError after `timeoutMs`. */
  waitFor(projection: string, position: bigint, timeoutMs: number): Promise<void> {
    const follower = this.running.get(projection);
    if (!follower) throw new Error(`projection ${projection} is not running in this process`);
    return follower.waitFor(position, timeoutMs);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.running.values()].map((follower) => follower.stop()));
  }
}
