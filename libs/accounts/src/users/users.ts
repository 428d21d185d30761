import { ConcurrencyError, StreamNotFoundError, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { decideUser, evolveUser, initialUserState, userStream, type UserCommand, type UserEvent, type UserState } from './domain/user.js';
import { UserChangedConcurrentlyError } from './errors.js';

export interface LoadedUser {
  state: UserState;
  /** Last revision of the stream; undefined when the user has no events yet. */
  revision?: bigint;
}

export interface Decided {
  events: UserEvent[];
  /** Global position of the last appended event; undefined when nothing was decided. */
  position?: bigint;
  state: UserState;
}

/** Bounded: contention on one user is a person's own requests, not a crowd. */
const MAX_ATTEMPTS = 3;

/** Loads a user's stream, decides, and appends with the expected revision. */
export class Users {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
  ) {}

  async load(userId: string): Promise<LoadedUser> {
    try {
      const stored = await this.events.readStream(userStream(userId));
      const state = stored.reduce((current, recorded) => {
        const event = this.registry.upcast(recorded);
        return evolveUser(current, { type: event.type, data: event.data } as UserEvent);
      }, initialUserState);
      return { state, revision: stored[stored.length - 1]?.revision };
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { state: initialUserState };
      throw error;
    }
  }

  /**
   * Decides against `loaded` (what the caller checked a password against) and
   * appends only if the stream is still there: a conflict is 409 USER_CHANGED,
   * because a retry would reuse a verdict on a password that may have changed.
   */
  async decideOn(userId: string, loaded: LoadedUser, command: UserCommand): Promise<Decided> {
    const events = decideUser(command, loaded.state);
    try {
      return await this.append(userId, loaded, events);
    } catch (error) {
      if (error instanceof ConcurrencyError) throw new UserChangedConcurrentlyError();
      throw error;
    }
  }

  /**
   * Loads, decides and appends, and on a conflict does it again from the new
   * state: for commands whose every rule is in the decider (a reset token's
   * validity, a Google link), so deciding afresh is always sound.
   */
  async execute(userId: string, command: UserCommand): Promise<Decided> {
    for (let attempt = 1; ; attempt += 1) {
      const loaded = await this.load(userId);
      const events = decideUser(command, loaded.state);
      try {
        return await this.append(userId, loaded, events);
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw new UserChangedConcurrentlyError();
      }
    }
  }

  private async append(userId: string, loaded: LoadedUser, events: UserEvent[]): Promise<Decided> {
    const state = events.reduce(evolveUser, loaded.state);
    if (events.length === 0) return { events, state };
    const result = await this.events.append(
      userStream(userId),
      events.map((event) => ({ type: event.type, data: { ...event.data }, metadata: this.registry.metadataFor(event.type) })),
      loaded.revision ?? 'no_stream',
    );
    return { events, position: result.position, state };
  }
}
