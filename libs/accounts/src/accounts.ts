import { DomainError, StreamNotFoundError, type Clock, type EventRegistry, type EventStore } from '../../platform/src/index.js';
import type { KeyDirectory } from './authentication/key-directory.js';
import {
  accountStream,
  AccountMissingError,
  decideAccount,
  evolveAccount,
  initialAccountState,
  type Account,
  type AccountCommand,
  type AccountEvent,
  type AccountState,
} from './domain/account.js';

export class AccountNotFoundError extends DomainError {
  readonly code = 'ACCOUNT_NOT_FOUND';
  readonly status = 404;
  constructor(accountId: string) {
    super(`no account ${accountId}`);
  }
}

/** Runs account commands: load the stream, decide, append with the expected revision, wait for the directory. */
export class Accounts {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly directory: KeyDirectory,
    private readonly clock: Clock,
    private readonly waitMs: number,
  ) {}

  async execute(accountId: string, command: (now: Date) => AccountCommand): Promise<Account> {
    const stream = accountStream(accountId);
    const { state, revision } = await this.load(stream);
    let decided: AccountEvent[];
    try {
      decided = decideAccount(command(this.clock.now()), state);
    } catch (error) {
      if (error instanceof AccountMissingError) throw new AccountNotFoundError(accountId);
      throw error;
    }
    const result = await this.events.append(
      stream,
      decided.map((event) => ({ type: event.type, data: { ...event.data }, metadata: this.registry.metadataFor(event.type) })),
      revision ?? 'no_stream',
    );
    await this.directory.waitFor(result.position, this.waitMs);
    const account = this.directory.account(accountId);
    if (!account) throw new AccountNotFoundError(accountId);
    return account;
  }

  private async load(stream: string): Promise<{ state: AccountState; revision?: bigint }> {
    try {
      const stored = await this.events.readStream(stream);
      const state = stored.reduce((current, event) => evolveAccount(current, { type: event.type, data: event.data } as AccountEvent), initialAccountState);
      return { state, revision: stored[stored.length - 1]?.revision };
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { state: initialAccountState };
      throw error;
    }
  }
}
