import type { EventStore, Subscription } from '../event-store/event-store.port.js';
import type { EventRegistry } from '../events/event-registry.js';
import { TimeoutError } from '../errors.js';
import type { JsonLogger } from '../logging/json-logger.js';
import type { ReadCollection, ReadStore } from '../read-store/read-store.port.js';
import { checkpointName, collectionName, type Projection } from './projection.js';

/** Checkpoints are written at most this often; replays after a crash are harmless (idempotent apply). */
const CHECKPOINT_EVERY_MS = 100;
const CHECKPOINT_EVERY_EVENTS = 500;
const RESTART_DELAY_MS = 1000;

interface Running {
  projection: Projection;
  collection: ReadCollection<never>;
  /** Last position fully applied. */
  position: bigint;
  /** Last position written as checkpoint. */
  saved: bigint;
  subscription?: Subscription;
  lastSave: number;
  sinceSave: number;
  waiters: Array<{ position: bigint; resolve: () => void }>;
}

/**
 * Runs every projection as a catch-up subscription from its own checkpoint.
 * `waitFor` lets a command that must read its own write wait until the read
 * model has applied the position it appended.
 */
export class ProjectionRunner {
  private readonly running = new Map<string, Running>();
  private stopping = false;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly registry: EventRegistry,
    private readonly projections: Projection[],
    private readonly logger: JsonLogger,
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
      const collection = await this.readStore.collection(collectionName(projection), projection.indexes);
      const position = (await this.readStore.getCheckpoint(checkpointName(projection))) ?? 0n;
      const state: Running = { projection, collection: collection as ReadCollection<never>, position, saved: position, lastSave: Date.now(), sinceSave: 0, waiters: [] };
      this.running.set(projection.name, state);
      this.subscribe(state);
    }
  }

  /** Position each projection has applied, for progress output and tests. */
  positions(): Record<string, bigint> {
    return Object.fromEntries([...this.running].map(([name, state]) => [name, state.position]));
  }

  /** Resolves once `projection` has applied `position`; TimeoutError after `timeoutMs`. */
  waitFor(projection: string, position: bigint, timeoutMs: number): Promise<void> {
    const state = this.running.get(projection);
    if (!state) throw new Error(`projection ${projection} is not running in this process`);
    if (state.position >= position) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        state.waiters = state.waiters.filter((waiter) => waiter.resolve !== done);
        reject(new TimeoutError(`read model ${projection} did not catch up within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      state.waiters.push({ position, resolve: done });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.running.values()].map((state) => state.subscription?.stop()));
    for (const state of this.running.values()) await this.save(state);
  }

  private subscribe(state: Running): void {
    const { projection } = state;
    const handles = new Set(projection.handles);
    state.subscription = this.events.subscribeToAll({ after: state.position, streamPrefixes: projection.streamPrefixes }, async (event) => {
      if (handles.has(event.type)) await projection.apply(this.registry.upcast(event), state.collection);
      state.position = event.position;
      state.sinceSave++;
      this.release(state);
      if (state.sinceSave >= CHECKPOINT_EVERY_EVENTS || Date.now() - state.lastSave >= CHECKPOINT_EVERY_MS) await this.save(state);
    });
    state.subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopping) return;
        this.logger.error({ msg: 'projection failed; restarting from its last position', projection: projection.name, err: String(error) });
        setTimeout(() => !this.stopping && this.subscribe(state), RESTART_DELAY_MS).unref();
      },
    );
  }

  private release(state: Running): void {
    if (state.waiters.length === 0) return;
    const ready = state.waiters.filter((waiter) => waiter.position <= state.position);
    state.waiters = state.waiters.filter((waiter) => waiter.position > state.position);
    for (const waiter of ready) waiter.resolve();
  }

  private async save(state: Running): Promise<void> {
    if (state.position === state.saved) return;
    await this.readStore.setCheckpoint(checkpointName(state.projection), state.position);
    state.saved = state.position;
    state.lastSave = Date.now();
    state.sinceSave = 0;
  }
}
