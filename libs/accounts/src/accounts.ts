import { appendDecided, DomainError, loadStream, type Clock, type EventRegistry, type EventStore } from '../../platform/src/index.js';
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
    const { state, revision } = await loadStream(this.events, this.registry, stream, evolveAccount, initialAccountState);
    let decided: AccountEvent[];
    try {
      decided = decideAccount(command(this.clock.now()), state);
    } catch (error) {
      if (error instanceof AccountMissingError) throw new AccountNotFoundError(accountId);
      throw error;
    }
    const result = await appendDecided(this.events, this.registry, stream, decided, revision);
    await this.directory.waitFor(result.position, this.waitMs);
    const account = this.directory.account(accountId);
    if (!account) throw new AccountNotFoundError(accountId);
    return account;
  }
}
