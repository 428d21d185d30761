import { StreamNotFoundError } from '../event-store/errors.js';
import type { AppendResult, EventStore, ExpectedRevision } from '../event-store/event-store.port.js';
import type { EventRegistry } from './event-registry.js';

/** An event of a context's union as deciders see it: a stable type string and plain data. */
export interface DomainEvent {
  type: string;
  data: object;
}

export interface LoadedStream<State> {
  state: State;
  /** Last revision of the stream; undefined when it does not exist yet. */
  revision?: bigint;
}

/**
 * Folds a stream into its aggregate state (events upcast first); a stream that
 * does not exist is the initial state. The revision is what the next append expects.
 */
export async function loadStream<State, Event extends DomainEvent>(
  events: EventStore,
  registry: EventRegistry,
  stream: string,
  evolve: (state: State, event: Event) => State,
  initial: State,
): Promise<LoadedStream<State>> {
  try {
    const stored = await events.readStream(stream);
    const state = stored.reduce((current, recorded) => {
      const event = registry.upcast(recorded);
      return evolve(current, { type: event.type, data: event.data } as Event);
    }, initial);
    return { state, revision: stored[stored.length - 1]?.revision };
  } catch (error) {
    if (error instanceof StreamNotFoundError) return { state: initial };
    throw error;
  }
}

/** Appends decided events with their schema version stamped, expecting the revision they were decided on. */
export function appendDecided(
  events: EventStore,
  registry: EventRegistry,
  stream: string,
  decided: DomainEvent[],
  revision: bigint | undefined,
): Promise<AppendResult> {
  const expected: ExpectedRevision = revision ?? 'no_stream';
  return events.append(
    stream,
    decided.map((event) => ({ type: event.type, data: { ...event.data } as Record<string, unknown>, metadata: registry.metadataFor(event.type) })),
    expected,
  );
}
