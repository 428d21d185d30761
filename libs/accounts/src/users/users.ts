import { appendDecided, ConcurrencyError, loadStream, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
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

  load(userId: string): Promise<LoadedUser> {
    return loadStream(this.events, this.registry, userStream(userId), evolveUser, initialUserState);
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
    const result = await appendDecided(this.events, this.registry, userStream(userId), events, loaded.revision);
    return { events, position: result.position, state };
  }
}
