import type { Account } from './domain/account.js';

/**
 * What other contexts read of the accounts (issue 52, docs/adr/0066): an open account by id (its name, tier and
 * opening date), and a wait for this process's directory to catch up with the log. The key directory implements it
 * (in memory, kept current from the log); locator, monitoring and traffic inject it by ACCOUNT_DIRECTORY, never the
 * directory itself.
 */
export interface AccountDirectory {
  /** The open account, or undefined (unknown, or closed). */
  account(accountId: string): Account | undefined;
  /** Resolves once the directory has applied the log up to `position`, or after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<void>;
}

export const ACCOUNT_DIRECTORY = Symbol('AccountDirectory');
