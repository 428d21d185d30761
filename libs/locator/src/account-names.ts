import type { AccountDirectory } from '../../accounts/src/index.js';

/**
 * The name each account signed up with, so a person sees who can see them and
 * whom they see, not opaque ids. Read from the accounts context's key
 * directory (in memory, kept current from the log); null when unknown.
 */
export class AccountNames {
  constructor(private readonly directory?: AccountDirectory) {}

  of(accountId: string): string | null {
    return this.directory?.account(accountId)?.name ?? null;
  }
}
