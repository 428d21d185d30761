import type { AccountDirectory } from '../../../../accounts/src/index.js';
import type { EventStore } from '../../../../platform/src/index.js';

/** How long a grant waits for this process's key directory to learn an account it does not know yet. */
const CATCH_UP_MS = 2000;

/**
 * When the calling account was opened, for the grant's capture-time floor
 * (docs/adr/0059). The request's principal names the account but not its
 * age; the accounts context publishes its key directory (in memory, kept
 * current from the log), which holds every open account with `opened_at`.
 * The guard found the caller's key there, so the account is normally known;
 * should this process's directory lag behind the log (a key authenticated
 * before the directory applied it), the grant waits for it to catch up with
 * the log's head, for at most CATCH_UP_MS. Undefined when there is no
 * directory (a pipeline without the accounts context) or still no account.
 */
export async function accountOpenedAt(directory: AccountDirectory | undefined, events: EventStore | undefined, accountId: string): Promise<string | undefined> {
  if (!directory) return undefined;
  const known = directory.account(accountId);
  if (known || !events) return known?.opened_at;
  try {
    await directory.waitFor(await events.headPosition(), CATCH_UP_MS);
  } catch {
    // Still behind after the wait: the floor is left out for this grant, as for an account unknown.
  }
  return directory.account(accountId)?.opened_at;
}
