import type { DomainEvent } from '../events/event-stream.js';

/**
 * An aggregate as a decider (style.md, "Events and aggregates"; Oskar
 * Dudycz's decider samples, emmett's `CommandHandler`): pure functions, no
 * clock and no I/O. `now` is handed in by the pipeline, so tests control time.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  readonly initialState: State;
  evolve(state: State, event: Event): State;
  /** The events the command causes in `state`; none when it changes nothing. Throws a DomainError to refuse. */
  decide(command: Command, state: State, now: Date): Event[];
}
