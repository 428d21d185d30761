import type { Decider } from '../commands/decider.js';
import type { DomainEvent } from '../events/event-stream.js';

/**
 * Given/when/then for deciders (style.md, "Tests"): `given(history)` folds
 * past events, `when(command)` decides at `now`, and the result is what the
 * decider answered: the events, or the error it threw. No test-runner
 * globals here, so any spec can use it with its own `expect`.
 */
export interface DeciderSpec<Command, State, Event extends DomainEvent> {
  given(history: readonly Event[]): {
    state: State;
    when(command: Command, now?: Date): WhenResult<State, Event>;
  };
  /** The events a sequence of commands leaves, each decided on the state the previous ones made. */
  history(...steps: Array<Command | [Command, Date]>): Event[];
}

export interface WhenResult<State, Event> {
  /** The decided events; throws what the decider threw. */
  readonly events: Event[];
  /** What the decider threw; undefined when it decided. */
  readonly error: unknown;
  /** The state after the decided events (the given state when it threw). */
  readonly state: State;
}

export function deciderSpec<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>, defaultNow: Date = new Date('2026-01-01T00:00:00.000Z')): DeciderSpec<Command, State, Event> {
  const fold = (state: State, events: readonly Event[]) => events.reduce((current, event) => decider.evolve(current, event), state);
  const given = (history: readonly Event[]) => {
    const state = fold(decider.initialState, history);
    return {
      state,
      when(command: Command, now: Date = defaultNow): WhenResult<State, Event> {
        let events: Event[] | undefined;
        let error: unknown;
        try {
          events = decider.decide(command, state, now);
        } catch (thrown) {
          error = thrown;
        }
        return {
          get events(): Event[] {
            if (events === undefined) throw error;
            return events;
          },
          error,
          state: events === undefined ? state : fold(state, events),
        };
      },
    };
  };
  return {
    given,
    history: (...steps) =>
      steps.reduce<Event[]>((events, step) => {
        const [command, now] = Array.isArray(step) ? step : [step, defaultNow];
        return [...events, ...given(events).when(command as Command, now as Date).events];
      }, []),
  };
}
