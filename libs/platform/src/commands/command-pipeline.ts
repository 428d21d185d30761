import type { Clock } from '../clock.js';
import { DomainError, TimeoutError } from '../errors.js';
import { ConcurrencyError, StreamNotFoundError } from '../event-store/errors.js';
import type { EventStore, NewEvent, RecordedEvent } from '../event-store/event-store.port.js';
import type { EventRegistry } from '../events/event-registry.js';
import type { DomainEvent } from '../events/event-stream.js';
import { awaitedReadModel, type CommandDefinition, type CommandResult, type LoadedState } from './command.js';
import type { ReadModels } from './read-models.js';
import { plainCodec, type CodecSession, type StreamCodec } from './stream-codec.js';

/** Another request changed what this command decided on; the one 409 for it across the API. */
export class ChangedConcurrentlyError extends DomainError {
  readonly code = 'CONCURRENCY_CONFLICT';
  readonly status = 409;
  constructor() {
    super('another request changed this resource at the same moment; read it again and retry');
  }
}

export interface CommandPipelineOptions {
  /** PROJECTION_WAIT_MS. */
  waitMs: number;
  /** Resolves an `inject` token (Nest's ModuleRef outside tests). */
  resolve: (token: unknown) => unknown;
}

const READ_PAGE = 2000;

/**
 * Between conflict retries: a random pause of up to 2^attempt ms (at most
 * 64 ms). Writers that collided retried in lock-step and collided again, so a
 * burst of check-ins on one stream used up its retries and answered 409
 * (issue 31, item 5); spread out, each retry finds the stream settled.
 */
function conflictBackoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(64, 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The write was stored, but a read model the answer waits for did not show it
 * in time: still 504 TIMEOUT, but saying so (issue 31: two bulk registrations
 * answered a bare 504 although every loan was stored), with where the write
 * landed. Sending the request again is not needed; reading a moment later is.
 */
export class StoredNotYetVisibleError extends TimeoutError {
  override readonly details: Readonly<Record<string, unknown>>;
  override readonly retryAfterSeconds = 1;
  constructor(readModel: string, position: bigint, waitedMs: number) {
    super(`the write was stored, but ${readModel} did not show it within ${waitedMs} ms; read again shortly rather than sending it again`);
    this.details = { stored: true, read_model: readModel, position: position.toString() };
  }
}

/** What the pipeline resolves once per definition, whatever its types. */
interface Wirable {
  inject?: Readonly<Record<string, unknown>>;
  codec?: (deps: never) => StreamCodec<unknown>;
}

/** Runs work for one key after the work queued before it for that key, in arrival order. */
class StreamTurns {
  private readonly tails = new Map<string, Promise<void>>();

  async take<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    let release!: () => void;
    const tail = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(key, tail);
    try {
      if (before) await before;
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/**
 * Runs every command: read is decode → open → upcast → evolve, write is
 * decide → seal → append with the expected revision; a conflict follows the
 * command's policy; then the answer waits for the read models the command
 * names. docs/adr/0015-command-pipeline-and-log-follower.md.
 */
export class CommandPipeline {
  private readonly prepared = new WeakMap<object, { deps: unknown; codec: StreamCodec<unknown> }>();
  private readonly turns = new StreamTurns();

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly readModels: ReadModels,
    private readonly clock: Clock,
    private readonly options: CommandPipelineOptions,
  ) {}

  async run<Input, State, Event extends DomainEvent, Deps>(definition: CommandDefinition<Input, State, Event, Deps>, input: Input): Promise<CommandResult<State, Event, Input>> {
    const { deps, codec } = this.wiring(definition as Wirable);
    const stream = definition.stream(input);
    // One command at a time per stream in this process: concurrent writers of one stream (a burst of check-ins)
    // queue here instead of colliding on the append and using up their retries (issue 31, item 5). The read-model
    // wait is outside the turn. Writers in other processes still meet the expected revision and the conflict policy.
    // A declaration that retries no conflict (a signing-key rotation must not be repeated) wants a concurrent
    // writer to answer 409, not to run after it: it takes no turn.
    const attempts = async () => {
      for (let attempt = 0; ; attempt++) {
        const session = codec.session(stream) as CodecSession<State>;
        const loaded = await this.load(stream, definition.decider, session);
        const command = definition.prepare ? await definition.prepare(input, loaded, deps as Deps) : input;
        const decided = definition.decider.decide(command, loaded.state, this.clock.now());
        const state = decided.reduce((current, event) => definition.decider.evolve(current, event), loaded.state);
        if (decided.length === 0) return { previous: loaded.state, state, events: decided, command, revision: loaded.revision } as CommandResult<State, Event, Input>;
        const stamped: NewEvent[] = decided.map((event) => ({
          type: event.type,
          data: { ...event.data } as Record<string, unknown>,
          metadata: this.registry.metadataFor(event.type),
        }));
        const sealed = await Promise.all(stamped.map((event) => session.seal(event)));
        let result;
        try {
          result = await this.events.append(stream, sealed, loaded.revision ?? 'no_stream');
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          if (attempt >= definition.onConflict.retry) throw new ChangedConcurrentlyError();
          await conflictBackoff(attempt);
          continue;
        }
        await session.appended?.({ state, result, events: sealed });
        return { previous: loaded.state, state, events: decided, command, position: result.position, revision: result.nextExpectedRevision } as CommandResult<State, Event, Input>;
      }
    };
    const outcome = definition.onConflict.retry > 0 ? await this.turns.take(stream, attempts) : await attempts();
    if (outcome.position !== undefined) await this.settle(definition, outcome.position);
    return outcome;
  }

  /** Folds a stream as a command would, without deciding (queries straight from a short stream). */
  async read<State, Event extends DomainEvent, Deps>(definition: Pick<CommandDefinition<never, State, Event, Deps>, 'decider' | 'codec' | 'inject'>, stream: string): Promise<LoadedState<State>> {
    const { codec } = this.wiring(definition as Wirable);
    return this.load(stream, definition.decider, codec.session(stream) as CodecSession<State>);
  }

  /** Waits for `awaits` at `position`, as a command declared them (process handlers that append through several commands). */
  async settle(definition: Pick<CommandDefinition<never, never, never, never>, 'awaits' | 'name'>, position: bigint): Promise<void> {
    for (const entry of definition.awaits ?? []) {
      try {
        await this.readModels.waitFor(awaitedReadModel(entry), position, this.options.waitMs);
      } catch (error) {
        if (!(error instanceof TimeoutError)) throw error;
        // A soft wait: the write is stored either way and the answer does not read the model.
        if (typeof entry === 'string') throw new StoredNotYetVisibleError(entry, position, this.options.waitMs);
      }
    }
  }

  private async load<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<CommandDefinition<never, State, Event, unknown>['decider'], 'initialState' | 'evolve'>,
    session: CodecSession<State>,
  ): Promise<LoadedState<State>> {
    const snapshot = await session.snapshot?.();
    let state = snapshot?.state ?? decider.initialState;
    let revision = snapshot?.revision;
    let from = snapshot ? snapshot.revision + 1n : 0n;
    for (;;) {
      let page: RecordedEvent[];
      try {
        page = await this.events.readStream(stream, { fromRevision: from, maxCount: READ_PAGE });
      } catch (error) {
        if (error instanceof StreamNotFoundError) return { state: decider.initialState };
        throw error;
      }
      for (const recorded of page) {
        revision = recorded.revision;
        const opened = await session.open(recorded);
        if (!opened) continue;
        const event = this.registry.upcast(opened);
        state = decider.evolve(state, { type: event.type, data: event.data } as Event);
      }
      if (page.length < READ_PAGE) return { state, revision };
      from = page[page.length - 1].revision + 1n;
    }
  }

  private wiring(definition: Wirable): { deps: unknown; codec: StreamCodec<unknown> } {
    let wired = this.prepared.get(definition);
    if (!wired) {
      const deps = Object.fromEntries(Object.entries(definition.inject ?? {}).map(([name, token]) => [name, this.options.resolve(token)]));
      const codec = definition.codec ? definition.codec(deps as never) : (plainCodec as StreamCodec<unknown>);
      wired = { deps, codec };
      this.prepared.set(definition, wired);
    }
    return wired;
  }
}
